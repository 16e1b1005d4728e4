package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
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
    private List<Batch> result;
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
    }

    /** The sorted rows, for the pipeline that reads them (valid after {@link #finish()}). */
    public Source output() {
        return new MaterializedSource(input, () -> result, true);
    }

    /** Accounts the rows this operator keeps in {@code account}; it throws when the query may hold no more. */
    public Sort memory(final QueryMemory.Operator account) {
        this.memory = account;
        return this;
    }

    @Override
    public Rows createLocal() {
        return new Rows(memory);
    }

    @Override
    public synchronized void combine(final Rows local) {
        collected.add(local);
    }

    @Override
    public void finish() {
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
                final int cmp = compare(v, isDouble[i], a, b);
                if (cmp != 0) {
                    return descending[i] ? -cmp : cmp;
                }
            }
            return 0;
        };
    }

    /** Compares two rows that are not NULL. */
    private static int compare(final ColumnVector v, final boolean isDouble, final int a, final int b) {
        if (v instanceof LongVector l) {
            return isDouble
                    ? Double.compare(Double.longBitsToDouble(l.get(a)), Double.longBitsToDouble(l.get(b)))
                    : Long.compare(l.get(a), l.get(b));
        }
        if (v instanceof IntVector iv) {
            return Integer.compare(iv.get(a), iv.get(b));
        }
        if (v instanceof Decimal128Vector d) {
            return Decimal128Vector.compare(d.high()[a], d.low()[a], d.high()[b], d.low()[b]);
        }
        final StringVector s = (StringVector) v;
        final int oa = s.offset(a);
        final int ob = s.offset(b);
        return Arrays.compareUnsigned(s.bytes(), oa, oa + s.length(a), s.bytes(), ob, ob + s.length(b));
    }

    @Override
    public String toString() {
        return "sort " + keys + (limit == NO_LIMIT ? "" : " limit " + limit);
    }

    /** A worker's collected rows. */
    public static final class Rows implements BatchConsumer {
        private final List<Batch> batches = new ArrayList<>();
        private final QueryMemory.Operator memory;

        Rows(final QueryMemory.Operator memory) {
            this.memory = memory;
        }

        @Override
        public void accept(final Batch batch) {
            memory.keep(batch);
            batches.add(batch);
        }
    }
}
