package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.IndexSort;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Window functions ({@code f(...) OVER (PARTITION BY p ORDER BY o)}): a sink that keeps the rows it
 * receives, sorts them by the partition keys and then the order keys (as {@link Sort} orders them,
 * NULLs as each key says; rows whose partition keys are all equal or NULL alike form one partition)
 * and computes every function in one pass over each partition. Its output is the input columns
 * followed by one column per function, in no promised order.
 *
 * <p>A partition must be whole in one sink state: with {@code partitioned} each worker's morsels
 * are whole buckets of a shuffle on the partition keys, so each worker computes its own rows when
 * it combines; otherwise {@link #finish()} computes over all workers' rows together (the rows of a
 * window without PARTITION BY, gathered in one place).
 *
 * <p>Aggregates reuse the group-by {@link Accumulator}s: rows are aggregated into one group per
 * frame step (a peer group for {@link WindowFrame#RANGE_TO_CURRENT_ROW}, a row for
 * {@link WindowFrame#ROWS_TO_CURRENT_ROW}, a partition for {@link WindowFrame#PARTITION}), and a
 * running frame then merges each step into the next one of its partition, in order, so that every
 * step holds the aggregate of the partition up to it. Every other frame (an offset, or a start after
 * UNBOUNDED PRECEDING) slides: {@link FrameBounds} finds each row's first and last row and
 * {@link FrameAggregation} aggregates between them in one pass.
 */
public final class Window implements Sink<Window.Rows> {
    private final RowType input;
    private final List<String> partitionBy;
    private final List<SortKey> orderBy;
    private final List<WindowFunction> functions;
    private final boolean partitioned;
    private final RowType output;
    private final List<Rows> collected = new ArrayList<>();
    private final List<Batch> computed = new ArrayList<>();
    private List<Batch> result;
    /** What the rows this operator keeps take of the query's memory. */
    private QueryMemory.Operator memory = QueryMemory.unbounded().operator("Window");

    /**
     * @param partitionBy the partition key columns; none: the input is one partition
     * @param orderBy     the window order within a partition; none: all rows of a partition are peers
     * @param partitioned true when each worker's morsels are whole buckets of a shuffle on the
     *                    partition keys (see above)
     */
    public Window(final RowType input, final List<String> partitionBy, final List<SortKey> orderBy,
                  final List<WindowFunction> functions, final boolean partitioned) {
        if (functions.isEmpty()) {
            throw new IllegalArgumentException("a window needs at least one function");
        }
        if (partitioned && partitionBy.isEmpty()) {
            throw new IllegalArgumentException("a window without PARTITION BY is one partition: it cannot be"
                    + " computed per bucket; gather its rows to one sink");
        }
        this.input = input;
        this.partitionBy = List.copyOf(partitionBy);
        this.orderBy = List.copyOf(orderBy);
        this.functions = List.copyOf(functions);
        this.partitioned = partitioned;
        for (final String p : partitionBy) {
            checkKey(p, "PARTITION BY");
        }
        for (final SortKey k : orderBy) {
            checkKey(k.column(), "ORDER BY");
        }
        for (final WindowFunction f : functions) {
            if (f.type().ranking() || f.frame().shape() != WindowFrame.Shape.SLIDING) {
                continue;
            }
            FrameAggregation.check(f, input);
            if (f.frame().hasRangeOffset()) {
                checkRangeKey(f);
            }
        }
        final List<String> names = new ArrayList<>(input.names());
        final List<DataType> types = new ArrayList<>(input.types());
        for (final WindowFunction f : functions) {
            names.add(f.name());
            types.add(f.outputType(input));
        }
        this.output = new RowType(names, types);
    }

    private void checkKey(final String column, final String clause) {
        final DataType t = input.type(input.indexOf(column));
        if (t.kind() == DataType.Kind.BOOLEAN) {
            throw new IllegalArgumentException("a window cannot " + clause + " the predicate column " + column);
        }
    }

    /** A RANGE offset measures the distance between values of one integer, decimal or date order key. */
    private void checkRangeKey(final WindowFunction f) {
        if (orderBy.size() != 1) {
            throw new IllegalArgumentException(f + ": a RANGE frame with an offset needs exactly one ORDER BY key,"
                    + " got " + orderBy.size() + "; use ROWS, or order by one column");
        }
        final DataType t = input.type(input.indexOf(orderBy.get(0).column()));
        if (!t.isExactNumeric() || t.isWide()) {
            throw new IllegalArgumentException(f + ": a RANGE frame with an offset needs an integer, decimal or date"
                    + " ORDER BY key, got " + orderBy.get(0).column() + " of type " + t + "; use ROWS");
        }
    }

    /** The input columns, then one column per function. */
    public RowType outputType() {
        return output;
    }

    /** The rows with their function values, for the pipeline that reads them (valid after {@link #finish()}). */
    public Source output() {
        return new MaterializedSource(output, () -> result, false);
    }

    /** Accounts the rows this operator keeps in {@code account}; it throws when the query may hold no more. */
    public Window memory(final QueryMemory.Operator account) {
        this.memory = account;
        return this;
    }

    @Override
    public Rows createLocal() {
        return new Rows(memory);
    }

    @Override
    public void combine(final Rows local) {
        if (partitioned) {
            final List<Batch> out = compute(local.batches);
            synchronized (this) {
                computed.addAll(out);
            }
            return;
        }
        synchronized (this) {
            collected.add(local);
        }
    }

    @Override
    public void finish() {
        if (!partitioned) {
            final List<Batch> all = new ArrayList<>();
            for (final Rows r : collected) {
                all.addAll(r.batches);
            }
            collected.clear();
            computed.addAll(compute(all));
        }
        result = List.copyOf(computed);
        computed.clear();
    }

    /** The rows of whole partitions, sorted into window order, with every function's column added. */
    private List<Batch> compute(final List<Batch> batches) {
        int total = 0;
        for (final Batch b : batches) {
            total = Math.addExact(total, b.rowCount());
        }
        final List<Batch> out = new ArrayList<>();
        if (total == 0) {
            return out;
        }
        final ColumnVector[] columns = new ColumnVector[input.size()];
        for (int c = 0; c < columns.length; c++) {
            final List<ColumnVector> parts = new ArrayList<>(batches.size());
            for (final Batch b : batches) {
                parts.add(b.column(c));
            }
            columns[c] = Vectors.concat(parts, input.type(c).storage());
        }
        final List<SortKey> partitionKeys = new ArrayList<>();
        for (final String p : partitionBy) {
            partitionKeys.add(SortKey.asc(p));
        }
        final List<SortKey> windowOrder = new ArrayList<>(partitionKeys);
        windowOrder.addAll(orderBy);
        final int[] order;
        if (windowOrder.isEmpty()) {
            order = new int[total];
            for (int i = 0; i < total; i++) {
                order[i] = i;
            }
        } else {
            order = IndexSort.stableOrder(total, new Sort(input, windowOrder, Sort.NO_LIMIT).comparator(columns));
        }
        final Steps steps = new Steps(total);
        steps.mark(order, partitionKeys.isEmpty() ? null : new Sort(input, partitionKeys, Sort.NO_LIMIT)
                .comparator(columns), orderBy.isEmpty() ? null : new Sort(input, windowOrder, Sort.NO_LIMIT)
                .comparator(columns));
        final List<Batch> sorted = new ArrayList<>();
        for (int from = 0; from < total; from += Block.MAX_ROWS) {
            final int n = Math.min(total - from, Block.MAX_ROWS);
            final int[] slice = Arrays.copyOfRange(order, from, from + n);
            final ColumnVector[] rows = new ColumnVector[columns.length];
            for (int c = 0; c < rows.length; c++) {
                rows[c] = Vectors.gather(columns[c], slice, n);
            }
            sorted.add(Batch.of(rows));
        }
        final ColumnVector[] values = new ColumnVector[functions.size()];
        final int[][] stepOf = new int[functions.size()][];
        for (int f = 0; f < values.length; f++) {
            final WindowFunction function = functions.get(f);
            if (function.type().ranking()) {
                values[f] = new LongVector(ColumnType.INT64, steps.rank(function.type()), total, null);
            } else if (function.frame().shape() == WindowFrame.Shape.SLIDING) {
                values[f] = FrameAggregation.compute(function, input, sorted, bounds(function.frame(), sorted, steps));
            } else {
                stepOf[f] = steps.stepsOf(function.frame());
                values[f] = aggregate(function, sorted, stepOf[f], steps);
            }
        }
        for (int b = 0; b < sorted.size(); b++) {
            final Batch rows = sorted.get(b);
            final int from = b * Block.MAX_ROWS;
            final int n = rows.rowCount();
            final ColumnVector[] all = new ColumnVector[output.size()];
            for (int c = 0; c < input.size(); c++) {
                all[c] = rows.column(c);
            }
            for (int f = 0; f < values.length; f++) {
                final int[] rowsOf = stepOf[f] == null ? null : Arrays.copyOfRange(stepOf[f], from, from + n);
                all[input.size() + f] = rowsOf == null ? Vectors.slice(values[f], from, from + n)
                        : Vectors.gather(values[f], rowsOf, n);
            }
            out.add(Batch.of(all));
        }
        return out;
    }

    /** Each row's frame, reading the order key's values in window order for a RANGE offset. */
    private FrameBounds bounds(final WindowFrame frame, final List<Batch> sorted, final Steps steps) {
        long[] keys = null;
        boolean[] keyNull = null;
        boolean descending = false;
        if (frame.hasRangeOffset()) {
            final SortKey key = orderBy.get(0);
            descending = key.descending();
            final int column = input.indexOf(key.column());
            keys = new long[steps.total];
            for (int b = 0; b < sorted.size(); b++) {
                final Batch rows = sorted.get(b);
                final int from = b * Block.MAX_ROWS;
                final ColumnVector v = rows.column(column);
                final long[] nulls = v.nulls();
                for (int i = 0; i < rows.rowCount(); i++) {
                    if (nulls != null && NullMask.isNull(nulls, i)) {
                        keyNull = keyNull == null ? new boolean[steps.total] : keyNull;
                        keyNull[from + i] = true;
                    } else {
                        keys[from + i] = v.key(i);
                    }
                }
            }
        }
        return FrameBounds.of(frame, steps.total, steps.partitionStart, steps.peerStart, keys, keyNull, descending);
    }

    /** One aggregate per frame step, running steps merged forward within each partition; one value per step. */
    private ColumnVector aggregate(final WindowFunction function, final List<Batch> sorted, final int[] stepOfRow,
                                   final Steps steps) {
        final Accumulator acc = function.asAggregate().newAccumulator(input);
        final int stepCount = stepOfRow[stepOfRow.length - 1] + 1;
        acc.ensureCapacity(stepCount);
        final int[] ids = new int[Block.MAX_ROWS];
        for (int b = 0; b < sorted.size(); b++) {
            final Batch rows = sorted.get(b);
            System.arraycopy(stepOfRow, b * Block.MAX_ROWS, ids, 0, rows.rowCount());
            acc.update(rows, ids, rows.rowCount());
        }
        if (function.frame().shape() != WindowFrame.Shape.PARTITION) {
            // merge() adds step i of a run into idMap[i] one after the other, so merging steps
            // [first, last) of a partition into [first + 1, last] carries the running value forward.
            final boolean[] startsPartition = steps.partitionStartsOf(stepOfRow, stepCount);
            final int[] next = new int[stepCount];
            int first = 0;
            while (first < stepCount) {
                int last = first;
                while (last + 1 < stepCount && !startsPartition[last + 1]) {
                    last++;
                }
                final int n = last - first;
                for (int i = 0; i < n; i++) {
                    next[i] = first + 1 + i;
                }
                if (n > 0) {
                    acc.merge(acc, first, next, n);
                }
                first = last + 1;
            }
        }
        return acc.output(0, stepCount);
    }

    @Override
    public String toString() {
        return "window partition by " + partitionBy + " order by " + orderBy + " " + functions
                + (partitioned ? " per bucket" : "");
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

    /** Where partitions and peer groups start among the rows in window order, and the ranks they give. */
    private static final class Steps {
        private final int total;
        private final boolean[] partitionStart;
        private final boolean[] peerStart;

        Steps(final int total) {
            this.total = total;
            this.partitionStart = new boolean[total];
            this.peerStart = new boolean[total];
        }

        /**
         * @param partition compares rows by the partition keys; null: one partition
         * @param peers     compares rows by partition and order keys; null: no ORDER BY, a partition's rows are peers
         */
        void mark(final int[] order, final IndexSort.IndexComparator partition, final IndexSort.IndexComparator peers) {
            partitionStart[0] = true;
            peerStart[0] = true;
            for (int i = 1; i < total; i++) {
                final boolean starts = partition != null && partition.compare(order[i - 1], order[i]) != 0;
                partitionStart[i] = starts;
                peerStart[i] = starts || (peers != null && peers.compare(order[i - 1], order[i]) != 0);
            }
        }

        long[] rank(final WindowFunctionType type) {
            final long[] out = new long[total];
            long rowNumber = 0;
            long rank = 0;
            long dense = 0;
            for (int i = 0; i < total; i++) {
                if (partitionStart[i]) {
                    rowNumber = 0;
                    dense = 0;
                }
                rowNumber++;
                if (peerStart[i]) {
                    rank = rowNumber;
                    dense++;
                }
                out[i] = switch (type) {
                    case ROW_NUMBER -> rowNumber;
                    case RANK -> rank;
                    default -> dense;
                };
            }
            return out;
        }

        /** The frame step of each row in window order: steps are numbered 0, 1, ... across all partitions. */
        int[] stepsOf(final WindowFrame frame) {
            final boolean[] starts = switch (frame.shape()) {
                case RUNNING_PEERS -> peerStart;
                case PARTITION -> partitionStart;
                case RUNNING_ROWS -> null;
                case SLIDING -> throw new IllegalStateException(frame + " is computed by FrameAggregation");
            };
            final int[] out = new int[total];
            int step = -1;
            for (int i = 0; i < total; i++) {
                if (starts == null || starts[i]) {
                    step++;
                }
                out[i] = step;
            }
            return out;
        }

        /** Whether each step is the first of its partition. */
        boolean[] partitionStartsOf(final int[] stepOfRow, final int stepCount) {
            final boolean[] out = new boolean[stepCount];
            for (int i = 0; i < total; i++) {
                if (partitionStart[i]) {
                    out[stepOfRow[i]] = true;
                }
            }
            return out;
        }
    }
}
