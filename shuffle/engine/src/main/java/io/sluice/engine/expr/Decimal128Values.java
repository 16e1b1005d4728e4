package io.sluice.engine.expr;

import io.sluice.format.Decimal128Vector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;

/**
 * The values of an exact numeric evaluator (integer, decimal or DECIMAL128) as 128-bit integers at
 * a given scale, and the comparisons, arithmetic and CASE that take a DECIMAL128 operand. A 64-bit
 * operand is sign-extended; rescaling multiplies exactly (overflow throws). NULL rows hold 0.
 */
final class Decimal128Values {
    private final Evaluator e;
    private final boolean wide;
    private final long factor;
    private final long[] high = new long[Evaluator.MAX_ROWS];
    private final long[] low = new long[Evaluator.MAX_ROWS];

    Decimal128Values(final Evaluator e, final int scale, final String where) {
        this.e = e;
        this.wide = e.type().isWide();
        if (!wide) {
            Scales.requireNumeric(e, where, false);
        }
        this.factor = Scales.power(scale - Scales.scale(e.type()));
    }

    /** Whether an evaluator is an exact number or a DECIMAL128, the operands this class takes. */
    static boolean takes(final Evaluator e) {
        final DataType.Kind k = e.type().kind();
        return e.type().isWide() || k == DataType.Kind.INT64 || k == DataType.Kind.INT32
                || k == DataType.Kind.DECIMAL;
    }

    /** Reads the batch; then {@link #high} and {@link #low} hold its rows. */
    void read(final Batch batch) {
        final int n = batch.rowCount();
        final long[] nullRows = e.nulls(batch);
        if (wide) {
            final long[] h = e.highs(batch);
            final long[] l = e.lows(batch);
            for (int i = 0; i < n; i++) {
                final boolean isNull = nullRows != null && NullMask.isNull(nullRows, i);
                if (factor == 1 || isNull) {
                    high[i] = isNull ? 0 : h[i];
                    low[i] = isNull ? 0 : l[i];
                } else {
                    Int128.multiply(h[i], l[i], 0, factor, high, low, i);
                }
            }
        } else {
            final long[] v = e.longs(batch);
            for (int i = 0; i < n; i++) {
                final long x = nullRows != null && NullMask.isNull(nullRows, i) ? 0 : v[i];
                if (factor == 1) {
                    high[i] = x >> 63;
                    low[i] = x;
                } else {
                    high[i] = Math.multiplyHigh(x, factor);
                    low[i] = x * factor;
                }
            }
        }
    }

    long[] high() {
        return high;
    }

    long[] low() {
        return low;
    }

    /** The scale two operands compare or add at: the larger one. */
    private static int commonScale(final Evaluator a, final Evaluator b) {
        return Math.max(Scales.scale(a.type()), Scales.scale(b.type()));
    }

    /** {@code a op b} where either side is a DECIMAL128, at their common scale. */
    static Evaluator compare(final Comparison.Op op, final Evaluator a, final Evaluator b, final String where) {
        requireTaken(a, where);
        requireTaken(b, where);
        final int scale = commonScale(a, b);
        final Decimal128Values x = new Decimal128Values(a, scale, where);
        final Decimal128Values y = new Decimal128Values(b, scale, where);
        return new Evaluator(DataType.BOOLEAN) {
            private final boolean[] out = new boolean[MAX_ROWS];
            private final long[] nullScratch = new long[NullRows.WORDS];

            @Override
            public boolean[] bools(final Batch batch) {
                x.read(batch);
                y.read(batch);
                final int n = batch.rowCount();
                for (int i = 0; i < n; i++) {
                    out[i] = op.test(Decimal128Vector.compare(x.high[i], x.low[i], y.high[i], y.low[i]));
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

    /** {@code a op b} where either side is a DECIMAL128: a DECIMAL128 at the sum's or the product's scale. */
    static Evaluator arithmetic(final Arithmetic.Op op, final Evaluator a, final Evaluator b, final String where) {
        requireTaken(a, where);
        requireTaken(b, where);
        final int scale = op == Arithmetic.Op.MUL ? Scales.scale(a.type()) + Scales.scale(b.type()) : commonScale(a, b);
        if (scale > 18) {
            throw new IllegalArgumentException(where + " needs scale " + scale + ", beyond the 18 digits a decimal has");
        }
        final Decimal128Values x = new Decimal128Values(a, op == Arithmetic.Op.MUL ? Scales.scale(a.type()) : scale,
                where);
        final Decimal128Values y = new Decimal128Values(b, op == Arithmetic.Op.MUL ? Scales.scale(b.type()) : scale,
                where);
        return new Evaluator(DataType.decimal128(scale)) {
            private final long[] outHigh = new long[MAX_ROWS];
            private final long[] outLow = new long[MAX_ROWS];
            private final long[] nullScratch = new long[NullRows.WORDS];
            private Batch computed;

            private void compute(final Batch batch) {
                if (computed == batch) {
                    return;
                }
                x.read(batch);
                y.read(batch);
                final int n = batch.rowCount();
                for (int i = 0; i < n; i++) {
                    switch (op) {
                        case ADD -> Int128.add(x.high[i], x.low[i], y.high[i], y.low[i], outHigh, outLow, i);
                        case SUB -> Int128.subtract(x.high[i], x.low[i], y.high[i], y.low[i], outHigh, outLow, i);
                        case MUL -> Int128.multiply(x.high[i], x.low[i], y.high[i], y.low[i], outHigh, outLow, i);
                    }
                }
                computed = batch;
            }

            @Override
            public long[] highs(final Batch batch) {
                computed = null;
                compute(batch);
                return outHigh;
            }

            @Override
            public long[] lows(final Batch batch) {
                compute(batch);
                return outLow;
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

    private static void requireTaken(final Evaluator e, final String where) {
        if (!takes(e)) {
            throw new IllegalArgumentException(where + ": operand " + e + " has type " + e.type()
                    + ", expected an integer or decimal to meet a 128-bit decimal");
        }
    }
}
