package io.sluice.engine.expr;

import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;

/**
 * A reference to an input column by name; long columns are read without a copy, int columns are
 * widened into an array made on first use (a plan binds many references it never widens).
 */
public record ColumnRef(String name) implements Expr {
    @Override
    public Evaluator bind(final RowType input) {
        final int index = input.indexOf(name);
        final DataType type = input.type(index);
        return new Evaluator(type) {
            private long[] widened;

            @Override
            public long[] longs(final Batch batch) {
                final ColumnVector v = batch.column(index);
                if (v instanceof LongVector l) {
                    return l.values();
                }
                if (v instanceof IntVector iv) {
                    final int[] values = iv.values();
                    final int n = batch.rowCount();
                    if (widened == null) {
                        widened = new long[MAX_ROWS];
                    }
                    for (int i = 0; i < n; i++) {
                        widened[i] = values[i];
                    }
                    return widened;
                }
                if (v instanceof Decimal128Vector) {
                    throw new IllegalArgumentException(name + " is a 128-bit decimal (a SUM result) and this"
                            + " operation takes 64-bit values only: cast it to DOUBLE or compare it instead");
                }
                return super.longs(batch);
            }

            @Override
            public long[] highs(final Batch batch) {
                return batch.column(index) instanceof Decimal128Vector d ? d.high() : super.highs(batch);
            }

            @Override
            public long[] lows(final Batch batch) {
                return batch.column(index) instanceof Decimal128Vector d ? d.low() : super.lows(batch);
            }

            @Override
            public int[] ints(final Batch batch) {
                return batch.column(index) instanceof IntVector iv ? iv.values() : null;
            }

            @Override
            public long[] nulls(final Batch batch) {
                return batch.column(index).nulls();
            }

            @Override
            public StringVector strings(final Batch batch) {
                if (batch.column(index) instanceof StringVector s) {
                    return s;
                }
                return super.strings(batch);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
