package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.IndexSort;
import io.sluice.format.IntVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The CN side of a MERGE SORT exchange: each worker sorts the rows it collected into one sorted run
 * when it is done ({@link #combine}, so the cores sort their parts at the same time, with
 * {@link Sort}'s order: a stable sort of row indexes over the key columns, the run gathered from
 * the batches as they came), keeping its first {@code limit} rows for a top-N. Runs are not merged
 * here: the output has one morsel per run, so one worker sends a whole run in order, and every row
 * carries its run's identity in a last column {@value #RUN_COLUMN} (an {@code INT32}, unique over
 * the cluster), so that {@link MergeSort} on the coordinator tells runs apart after a gather
 * interleaved the senders' batches.
 */
public final class SortedRuns implements Sink<SortedRuns.Rows> {
    /** The column holding a row's run. */
    public static final String RUN_COLUMN = "$run";

    private final RowType input;
    private final RowType output;
    private final List<SortKey> keys;
    private final long limit;
    private final int firstRun;
    private final int maxRuns;
    private final List<List<Batch>> runs = new ArrayList<>();
    /** Orders rows as a full sort does (and checks the keys when the plan compiles). */
    private final Sort comparator;

    /**
     * @param firstRun the identity of this CN's first run: runs are {@code firstRun .. firstRun + maxRuns - 1}
     * @param maxRuns  the most runs this CN makes: its cores
     */
    public SortedRuns(final RowType input, final List<SortKey> keys, final long limit, final int firstRun,
                      final int maxRuns) {
        if (input.names().contains(RUN_COLUMN)) {
            throw new IllegalArgumentException("column " + RUN_COLUMN + " of " + input.names()
                    + " is reserved for a sorted run's identity: rename it with a projection");
        }
        this.input = input;
        this.output = runTagged(input);
        this.keys = List.copyOf(keys);
        this.limit = limit;
        this.firstRun = firstRun;
        this.maxRuns = maxRuns;
        this.comparator = new Sort(input, keys, limit);
    }

    /** A row type with the run column after its columns. */
    public static RowType runTagged(final RowType rows) {
        return rows.concat(new RowType(List.of(RUN_COLUMN), List.of(DataType.INT32)));
    }

    /** The sorted runs, one morsel each, with the run column (valid after {@link #finish()}). */
    public Source output() {
        return new RunSource();
    }

    @Override
    public Rows createLocal() {
        return new Rows();
    }

    @Override
    public void combine(final Rows local) {
        final RunRows rows = new RunRows(local.batches);
        local.batches.clear();
        if (rows.rowCount() == 0) {
            return;
        }
        // Only the key columns are laid end to end to be compared; the run is gathered from the batches.
        final int[] order = IndexSort.stableOrder(rows.rowCount(), comparator.comparator(rows.keyColumns(input, keys)));
        final int kept = limit == Sort.NO_LIMIT ? order.length : (int) Math.min(limit, order.length);
        if (kept == 0) {
            return;
        }
        final List<ColumnVector[]> run = rows.gather(input, order, kept, 1);
        synchronized (this) {
            if (runs.size() == maxRuns) {
                throw new IllegalStateException("more than " + maxRuns + " workers sorted runs for " + this
                        + ": run identities " + firstRun + ".." + (firstRun + maxRuns - 1) + " are used up");
            }
            final int id = firstRun + runs.size();
            final List<Batch> tagged = new ArrayList<>(run.size());
            for (final ColumnVector[] columns : run) {
                tagged.add(tag(columns, id));
            }
            runs.add(tagged);
        }
    }

    /** A batch of the columns with the run's identity in the last, empty slot. */
    private static Batch tag(final ColumnVector[] columns, final int run) {
        final int[] ids = new int[columns[0].rowCount()];
        Arrays.fill(ids, run);
        columns[columns.length - 1] = new IntVector(ColumnType.INT32, ids, ids.length, null);
        return Batch.of(columns);
    }

    @Override
    public void finish() {
    }

    @Override
    public String toString() {
        return "sorted runs " + keys + (limit == Sort.NO_LIMIT ? "" : " limit " + limit) + ", one per core";
    }

    /** One morsel per run, so that one worker sends a run whole and in order. */
    private final class RunSource implements Source {
        @Override
        public RowType rowType() {
            return output;
        }

        @Override
        public int morselCount() {
            return runs.size();
        }

        @Override
        public boolean ordered() {
            return false;
        }

        @Override
        public Reader openReader() {
            return (morsel, out) -> {
                for (final Batch b : runs.get(morsel)) {
                    out.accept(b);
                }
            };
        }

        @Override
        public String toString() {
            return "sorted runs of the previous pipeline, one morsel each " + output.names();
        }
    }

    /** A worker's rows, sorted into its run when it is done. */
    public static final class Rows implements BatchConsumer {
        private final List<Batch> batches = new ArrayList<>();

        @Override
        public void accept(final Batch batch) {
            if (batch.rowCount() > 0) {
                batches.add(batch);
            }
        }
    }
}
