package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.ShuffleOperator;
import io.sluice.shuffle.operator.ShuffleOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * A local exchange that ends a pipeline: each worker drives its own {@link ShuffleOperator}
 * over its batches and keeps the bucket batches it emits, and the pipeline reading
 * {@link #output()} gets one morsel per bucket, so each bucket's rows meet in one worker (seed
 * 003: one pipeline per bucket). Batches routed whole by their zonemap are kept as they are;
 * batches gathered into the operator's pooled buffers are copied out so the pool can be reused.
 */
public final class ShuffleExchange implements Sink<ShuffleExchange.Local> {
    private final RowType input;
    private final int[] keyColumns;
    private final BucketFunction function;
    private final ShuffleOptions options;
    private final List<Local> locals = new ArrayList<>();
    private List<List<Batch>> buckets;

    /**
     * @param keyColumns the key columns in {@code input}, in the order the bucket function takes them
     * @param function   the bucket function; one bucket per worker core
     */
    public ShuffleExchange(final RowType input, final int[] keyColumns, final BucketFunction function,
                           final ShuffleOptions options) {
        this.input = input;
        this.keyColumns = keyColumns.clone();
        this.function = function;
        this.options = options;
        final List<Field> fields = new ArrayList<>();
        for (int c = 0; c < input.size(); c++) {
            fields.add(new Field(input.name(c), input.type(c).storage()));
        }
        new ShuffleOperator(new Schema(fields), this.keyColumns, function, options);
    }

    /** The shuffled rows, one morsel per bucket (valid once this sink finished). */
    public BucketSource output() {
        return new BucketSource(input, function.bucketCount(), () -> buckets);
    }

    @Override
    public Local createLocal() {
        return new Local();
    }

    @Override
    public synchronized void combine(final Local local) {
        if (local.operator != null) {
            local.operator.finish(local::keep);
        }
        locals.add(local);
    }

    @Override
    public void finish() {
        final List<List<Batch>> all = new ArrayList<>();
        for (int b = 0; b < function.bucketCount(); b++) {
            all.add(new ArrayList<>());
        }
        for (final Local l : locals) {
            for (int b = 0; b < all.size(); b++) {
                all.get(b).addAll(l.buckets.get(b));
            }
        }
        locals.clear();
        buckets = all;
    }

    @Override
    public String toString() {
        return "shuffle by " + keyNames() + " with " + function.getClass().getSimpleName() + " into "
                + function.bucketCount() + " buckets";
    }

    private List<String> keyNames() {
        final List<String> names = new ArrayList<>();
        for (final int k : keyColumns) {
            names.add(input.name(k));
        }
        return names;
    }

    /** A worker's shuffle operator and the bucket batches it emitted. */
    public final class Local implements BatchConsumer {
        private final List<List<Batch>> buckets = new ArrayList<>();
        /** Created for the first batch, over its vectors' exact types (a decimal's precision is not in the row type). */
        private ShuffleOperator operator;

        Local() {
            for (int b = 0; b < function.bucketCount(); b++) {
                buckets.add(new ArrayList<>());
            }
        }

        @Override
        public void accept(final Batch batch) {
            if (operator == null) {
                final List<Field> fields = new ArrayList<>();
                for (int c = 0; c < batch.columnCount(); c++) {
                    fields.add(new Field(input.name(c), batch.column(c).type()));
                }
                operator = new ShuffleOperator(new Schema(fields), keyColumns, function, options);
            }
            operator.push(batch, this::keep);
        }

        private void keep(final Batch batch) {
            if (!batch.isPooled()) {
                buckets.get(batch.shuffleIdx()).add(batch);
                return;
            }
            final ColumnVector[] copy = new ColumnVector[batch.columnCount()];
            for (int c = 0; c < copy.length; c++) {
                final ColumnVector v = batch.column(c);
                copy[c] = Vectors.concat(List.of(v), v.type());
            }
            buckets.get(batch.shuffleIdx()).add(Batch.of(copy));
        }
    }
}
