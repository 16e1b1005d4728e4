package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The coordinator side of a MERGE SORT exchange (seed 001's {@code EXCHANGE IN MERGE SORT DISTR}):
 * it receives the sorted runs {@link SortedRuns} made on every CN, each row tagged with its run in
 * the last column, keeps each run's batches apart and in arrival order (a gather keeps the order of
 * each sender's stream), and {@link #finish()} k-way merges them ({@link KWayMerge}, with
 * {@link Sort}'s order) instead of sorting every row again, stopping after {@code limit} rows. Its
 * output has the columns without the run column, ordered.
 */
public final class MergeSort implements Sink<MergeSort.Runs> {
    private final RowType input;
    private final RowType output;
    private final List<SortKey> keys;
    private final long limit;
    private final int runColumn;
    private final Map<Integer, List<Batch>> runs = new TreeMap<>();
    private final AtomicLong rowsMerged = new AtomicLong(-1);
    private final AtomicLong runsMerged = new AtomicLong(-1);
    private List<Batch> result;

    /** @param input the gathered rows: the sorted columns, then {@link SortedRuns#RUN_COLUMN} */
    public MergeSort(final RowType input, final List<SortKey> keys, final long limit) {
        this.input = input;
        this.runColumn = input.size() - 1;
        if (runColumn < 0 || !SortedRuns.RUN_COLUMN.equals(input.name(runColumn))) {
            throw new IllegalArgumentException("a merge sort reads sorted runs, whose last column is "
                    + SortedRuns.RUN_COLUMN + "; got " + input.names() + ": end the input in SortedRuns");
        }
        this.output = new RowType(input.names().subList(0, runColumn), input.types().subList(0, runColumn));
        this.keys = List.copyOf(keys);
        this.limit = limit;
        // Checks the keys now, when the plan compiles.
        new Sort(output, keys, limit);
    }

    /** The merged rows, for the pipeline that reads them (valid after {@link #finish()}). */
    public Source output() {
        return new MaterializedSource(output, () -> result, true);
    }

    /** Rows the merge handed out (at most the limit); -1 before it ran. */
    public long rowsMerged() {
        return rowsMerged.get();
    }

    /** Sorted runs received (CN cores that had rows); -1 before the merge ran. */
    public long runs() {
        return runsMerged.get();
    }

    @Override
    public Runs createLocal() {
        return new Runs();
    }

    @Override
    public synchronized void combine(final Runs local) {
        for (final Map.Entry<Integer, List<Batch>> e : local.byRun.entrySet()) {
            if (runs.putIfAbsent(e.getKey(), e.getValue()) != null) {
                throw new IllegalStateException("sorted run " + e.getKey() + " reached two workers of " + this
                        + ": a run must arrive through one exchange destination");
            }
        }
    }

    @Override
    public void finish() {
        final int k = runs.size();
        final int[] starts = new int[k + 1];
        final List<Batch> received = new ArrayList<>();
        int r = 0;
        for (final List<Batch> run : runs.values()) {
            received.addAll(run);
            int rows = starts[r];
            for (final Batch b : run) {
                rows = Math.addExact(rows, b.rowCount());
            }
            starts[++r] = rows;
        }
        runs.clear();
        final RunRows rows = new RunRows(received);
        received.clear();
        // Only the key columns are compared: only they are laid end to end.
        final int[] order = rows.rowCount() == 0 ? new int[0]
                : KWayMerge.order(starts, limit, new Sort(output, keys, limit).comparator(rows.keyColumns(output, keys)));
        result = new ArrayList<>();
        for (final ColumnVector[] columns : rows.gather(output, order, order.length, 0)) {
            result.add(Batch.of(columns));
        }
        runsMerged.set(k);
        rowsMerged.set(order.length);
    }

    @Override
    public String toString() {
        return "merge sort " + keys + (limit == Sort.NO_LIMIT ? "" : " limit " + limit)
                + (rowsMerged() < 0 ? "" : ": merged " + rowsMerged() + " rows of " + runs() + " sorted runs, no full sort");
    }

    /** A worker's received batches, by run, each run in arrival order. */
    public final class Runs implements BatchConsumer {
        private final Map<Integer, List<Batch>> byRun = new TreeMap<>();

        @Override
        public void accept(final Batch batch) {
            if (batch.rowCount() == 0) {
                return;
            }
            final int run = ((IntVector) batch.column(runColumn)).get(0);
            byRun.computeIfAbsent(run, x -> new ArrayList<>()).add(batch);
        }
    }
}
