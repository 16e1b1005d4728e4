package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillRun;
import io.sluice.engine.spill.SpillWriter;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IndexSort;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * ORDER BY, and top-N when given a limit: workers collect their rows, {@link #finish()} sorts all
 * of them by the keys (numbers and dates by value, doubles as doubles, strings by unsigned bytes,
 * NULLs first or last as each key says) and keeps the first {@code limit}, or for a limit of few of
 * the rows picks those alone ({@link IndexSort#firstStable}, the same rows in the same order). Its output is ordered: the pipeline reading it runs on one
 * worker.
 *
 * <p>Past the query's memory budget, with spilling on, a worker refused memory sorts the rows it holds into
 * a run on disk (its first {@code limit} rows for a top-N) and lets them go; {@link #finish()} then sorts
 * what the workers still hold into one more run, in memory, and the output is a {@link SpilledRunMerge} of
 * all runs, read one batch per run at a time. The rows a worker keeps are {@link RevocableMemory revocable}: another
 * operator refused memory may make them go to disk as a run, as on a refusal of the worker's own.
 */
public final class Sort implements Sink<Sort.Rows> {
    /** {@code limit} of a sort without one. */
    public static final long NO_LIMIT = -1;
    /**
     * A limit of at most this share of the rows (one in four) keeps its rows by a heap of {@code limit}
     * instead of sorting all of them: Q3 keeps 10 of 11,620 groups.
     */
    private static final int TOP_N_SHARE = 4;

    private final RowType input;
    private final List<SortKey> keys;
    private final long limit;
    private final List<Rows> collected = new ArrayList<>();
    private final List<SpillRun> spilled = new ArrayList<>();
    private final int[] keyIndex;
    private final boolean[] keyDescending;
    private final boolean[] keyNullsFirst;
    private final boolean[] keyDouble;
    private List<Batch> result;
    /** The merge of the spilled runs and the rows kept in memory; null when nothing spilled. */
    private SpilledRunMerge merge;
    /** What the rows this operator keeps take of the query's memory. */
    private QueryMemory.Operator memory = QueryMemory.unbounded().operator("Sort");

    public Sort(final RowType input, final List<SortKey> keys, final long limit) {
        this.input = input;
        this.keys = List.copyOf(keys);
        this.limit = limit;
        for (final SortKey k : keys) {
            final DataType t = input.type(input.indexOf(k.column()));
            if (t.kind() == DataType.Kind.BOOLEAN) {
                throw new IllegalArgumentException("cannot order by the predicate column " + k.column());
            }
        }
        final int k = keys.size();
        keyIndex = new int[k];
        keyDescending = new boolean[k];
        keyNullsFirst = new boolean[k];
        keyDouble = new boolean[k];
        for (int i = 0; i < k; i++) {
            keyIndex[i] = input.indexOf(keys.get(i).column());
            keyDescending[i] = keys.get(i).descending();
            keyNullsFirst[i] = keys.get(i).nullsFirst();
            keyDouble[i] = input.type(keyIndex[i]).kind() == DataType.Kind.DOUBLE;
        }
    }

    /** The sorted rows, for the pipeline that reads them (valid after {@link #finish()}). */
    public Source output() {
        return new Output();
    }

    /** Runs this sort wrote to disk. */
    public synchronized int spilledRuns() {
        return spilled.size();
    }

    /** Accounts the rows this operator keeps in {@code account}; it throws when the query may hold no more. */
    public Sort memory(final QueryMemory.Operator account) {
        this.memory = account;
        return this;
    }

    @Override
    public Rows createLocal() {
        return new Rows(this, memory);
    }

    @Override
    public synchronized void combine(final Rows local) {
        // Still revocable until the sort finishes: another worker may be reserving while this one is done.
        collected.add(local);
    }

    @Override
    public void finish() {
        synchronized (this) {
            for (final Rows r : collected) {
                if (r.revocable != null) {
                    r.revocable.close();
                }
                spilled.addAll(r.runs);
            }
        }
        if (!spilled.isEmpty()) {
            finishSpilled();
            return;
        }
        final List<List<ColumnVector>> parts = new ArrayList<>();
        for (int c = 0; c < input.size(); c++) {
            parts.add(new ArrayList<>());
        }
        int total = 0;
        for (final Rows r : collected) {
            for (final Batch b : r.batches) {
                for (int c = 0; c < input.size(); c++) {
                    parts.get(c).add(b.column(c));
                }
                total = Math.addExact(total, b.rowCount());
            }
        }
        collected.clear();
        result = new ArrayList<>();
        if (total == 0) {
            return;
        }
        final ColumnVector[] columns = new ColumnVector[input.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = Vectors.concat(parts.get(c), input.type(c).storage());
        }
        final int kept = limit == NO_LIMIT ? total : (int) Math.min(limit, total);
        final int[] rows = kept <= total / TOP_N_SHARE ? IndexSort.firstStable(total, kept, comparator(columns))
                : IndexSort.stableOrder(total, comparator(columns));
        for (int from = 0; from < kept; from += Block.MAX_ROWS) {
            final int n = Math.min(kept - from, Block.MAX_ROWS);
            final int[] slice = Arrays.copyOfRange(rows, from, from + n);
            final ColumnVector[] out = new ColumnVector[columns.length];
            for (int c = 0; c < out.length; c++) {
                out[c] = Vectors.gather(columns[c], slice, n);
            }
            result.add(Batch.of(out));
        }
    }

    /** Sorts what the workers still hold into a run in memory, and sets up the merge of every run. */
    private void finishSpilled() {
        final List<Batch> held = new ArrayList<>();
        for (final Rows r : collected) {
            held.addAll(r.batches);
            r.batches.clear();
        }
        collected.clear();
        final List<Batch> inMemory = new ArrayList<>();
        if (!held.isEmpty()) {
            final RunRows rows = new RunRows(held);
            final int[] order = IndexSort.stableOrder(rows.rowCount(), comparator(rows.keyColumns(input, keys)));
            final int kept = limit == NO_LIMIT ? order.length : (int) Math.min(limit, order.length);
            for (final ColumnVector[] columns : rows.gather(input, order, kept, 0)) {
                inMemory.add(Batch.of(columns));
            }
        }
        merge = new SpilledRunMerge(input, this, List.copyOf(spilled), inMemory, limit);
    }

    /** Sorts a worker's rows into a run on disk (its first {@code limit} rows), and returns the run. */
    SpillRun spill(final List<Batch> batches) {
        final RunRows rows = new RunRows(batches);
        final int[] order = IndexSort.stableOrder(rows.rowCount(), comparator(rows.keyColumns(input, keys)));
        final int kept = limit == NO_LIMIT ? order.length : (int) Math.min(limit, order.length);
        try (SpillWriter writer = memory.spillWriter()) {
            for (final ColumnVector[] columns : rows.gather(input, order, kept, 0)) {
                writer.write(Batch.of(columns));
            }
            return memory.spilled(writer.finish());
        }
    }

    /**
     * Compares row {@code ra} of {@code a} with row {@code rb} of {@code b} (batches of the input's columns)
     * by the keys, as {@link #comparator} orders rows of one batch.
     */
    int compare(final Batch a, final int ra, final Batch b, final int rb) {
        for (int i = 0; i < keyIndex.length; i++) {
            final ColumnVector va = a.column(keyIndex[i]);
            final ColumnVector vb = b.column(keyIndex[i]);
            final boolean na = va.isNull(ra);
            final boolean nb = vb.isNull(rb);
            if (na || nb) {
                if (na != nb) {
                    return na == keyNullsFirst[i] ? -1 : 1;
                }
                continue;
            }
            final int cmp = compare(va, ra, vb, rb, keyDouble[i]);
            if (cmp != 0) {
                return keyDescending[i] ? -cmp : cmp;
            }
        }
        return 0;
    }

    /** Orders row indexes of {@code columns} (the input's columns, rows of one vector) by the keys. */
    IndexSort.IndexComparator comparator(final ColumnVector[] columns) {
        final int k = keys.size();
        final ColumnVector[] keyColumns = new ColumnVector[k];
        final boolean[] descending = new boolean[k];
        final boolean[] nullsFirst = new boolean[k];
        final boolean[] isDouble = new boolean[k];
        for (int i = 0; i < k; i++) {
            final int c = input.indexOf(keys.get(i).column());
            keyColumns[i] = columns[c];
            descending[i] = keys.get(i).descending();
            nullsFirst[i] = keys.get(i).nullsFirst();
            isDouble[i] = input.type(c).kind() == DataType.Kind.DOUBLE;
        }
        return (a, b) -> {
            for (int i = 0; i < k; i++) {
                final ColumnVector v = keyColumns[i];
                final boolean na = v.isNull(a);
                final boolean nb = v.isNull(b);
                if (na || nb) {
                    if (na != nb) {
                        // NULLs are placed apart from the direction: first or last in both.
                        return na == nullsFirst[i] ? -1 : 1;
                    }
                    continue;
                }
                final int cmp = compare(v, a, v, b, isDouble[i]);
                if (cmp != 0) {
                    return descending[i] ? -cmp : cmp;
                }
            }
            return 0;
        };
    }

    /** Compares row {@code a} of {@code v} with row {@code b} of {@code w} (vectors of one type), neither NULL. */
    private static int compare(final ColumnVector v, final int a, final ColumnVector w, final int b,
                               final boolean isDouble) {
        if (v instanceof LongVector l) {
            final long lb = ((LongVector) w).get(b);
            return isDouble
                    ? Double.compare(Double.longBitsToDouble(l.get(a)), Double.longBitsToDouble(lb))
                    : Long.compare(l.get(a), lb);
        }
        if (v instanceof IntVector iv) {
            return Integer.compare(iv.get(a), ((IntVector) w).get(b));
        }
        if (v instanceof Decimal128Vector d) {
            final Decimal128Vector e = (Decimal128Vector) w;
            return Decimal128Vector.compare(d.high()[a], d.low()[a], e.high()[b], e.low()[b]);
        }
        final StringVector s = (StringVector) v;
        final StringVector t = (StringVector) w;
        final int oa = s.offset(a);
        final int ob = t.offset(b);
        return Arrays.compareUnsigned(s.bytes(), oa, oa + s.length(a), t.bytes(), ob, ob + t.length(b));
    }

    @Override
    public String toString() {
        return "sort " + keys + (limit == NO_LIMIT ? "" : " limit " + limit);
    }

    /** The sorted rows: the batches {@link #finish()} made, or the merge of the runs when rows spilled. */
    private final class Output implements Source {
        @Override
        public RowType rowType() {
            return input;
        }

        @Override
        public int morselCount() {
            // The merge is one morsel: one worker reads it from the first row to the last.
            return merge != null ? 1 : result.size();
        }

        @Override
        public boolean ordered() {
            return true;
        }

        @Override
        public Reader openReader() {
            return (morsel, out) -> {
                if (merge != null) {
                    merge.produce(out);
                } else {
                    out.accept(result.get(morsel));
                }
            };
        }

        @Override
        public String toString() {
            return "rows of the previous pipeline " + input.names();
        }
    }

    /** A worker's collected rows, and the runs it spilled. */
    public static final class Rows implements BatchConsumer {
        private final List<Batch> batches = new ArrayList<>();
        private final List<SpillRun> runs = new ArrayList<>();
        private final Sort sort;
        private final QueryMemory.Operator memory;
        /** The rows' memory as other operators may ask for it; null when spilling is off. */
        private final RevocableMemory revocable;
        private long held;

        Rows(final Sort sort, final QueryMemory.Operator memory) {
            this.sort = sort;
            this.memory = memory;
            this.revocable = memory.spills() ? memory.revocable(this::spill) : null;
        }

        @Override
        public void accept(final Batch batch) {
            if (revocable == null) {
                memory.keep(batch);
                batches.add(batch);
                return;
            }
            revocable.enter();
            try {
                final long bytes = QueryMemory.bytesOf(batch);
                batches.add(batch);
                if (revocable.tryReserve(bytes)) {
                    held += bytes;
                    return;
                }
                spill();
            } finally {
                revocable.exit();
            }
        }

        /** Writes the rows kept as a sorted run to disk and gives their memory back. */
        private void spill() {
            if (batches.isEmpty()) {
                return;
            }
            runs.add(sort.spill(batches));
            batches.clear();
            revocable.release(held);
            held = 0;
        }
    }
}
