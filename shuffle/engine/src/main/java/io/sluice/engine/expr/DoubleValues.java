package io.sluice.engine.expr;

import io.sluice.shuffle.operator.Batch;

/**
 * The values of a numeric evaluator as doubles: DOUBLE bits decoded, exact numbers (DECIMAL128
 * included) divided by 10^scale.
 */
final class DoubleValues {
    private final Evaluator e;
    private final boolean isDouble;
    private final boolean isWide;
    private final double divisor;
    private final double[] out = new double[Evaluator.MAX_ROWS];

    DoubleValues(final Evaluator e, final String where) {
        this.e = e;
        this.isDouble = e.type().kind() == DataType.Kind.DOUBLE;
        this.isWide = e.type().isWide();
        if (!isDouble && !isWide) {
            Scales.requireNumeric(e, where, false);
        }
        this.divisor = isDouble ? 1 : Scales.power(Scales.scale(e.type()));
    }

    double[] doubles(final Batch batch) {
        final int n = batch.rowCount();
        if (isWide) {
            final long[] h = e.highs(batch);
            final long[] l = e.lows(batch);
            final int scale = e.type().scale();
            for (int i = 0; i < n; i++) {
                out[i] = Int128.toDouble(h[i], l[i], scale, divisor);
            }
            return out;
        }
        final long[] v = e.longs(batch);
        if (isDouble) {
            for (int i = 0; i < n; i++) {
                out[i] = Double.longBitsToDouble(v[i]);
            }
        } else {
            for (int i = 0; i < n; i++) {
                out[i] = v[i] / divisor;
            }
        }
        return out;
    }

    /** A predicate comparing two numeric evaluators as doubles, when either is a DOUBLE. */
    static Evaluator compare(final Comparison.Op op, final Evaluator a, final Evaluator b, final String where) {
        final DoubleValues x = new DoubleValues(a, where);
        final DoubleValues y = new DoubleValues(b, where);
        return new Evaluator(DataType.BOOLEAN) {
            private final boolean[] out = new boolean[MAX_ROWS];
            private final long[] nullScratch = new long[NullRows.WORDS];

            @Override
            public boolean[] bools(final Batch batch) {
                final double[] l = x.doubles(batch);
                final double[] r = y.doubles(batch);
                final int n = batch.rowCount();
                for (int i = 0; i < n; i++) {
                    out[i] = op.test(Double.compare(l[i], r[i]));
                }
                return out;
            }

            @Override
            public long[] nulls(final Batch batch) {
                return NullRows.union(a.nulls(batch), b.nulls(batch), nullScratch, batch.rowCount());
            }

            @Override
            public String toString() {
                return where;
            }
        };
    }
}
