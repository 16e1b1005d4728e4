package io.sluice.engine.expr;

import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;

/** Decimal scale alignment: the common type of two exact numbers and a rescaling evaluator. */
final class Scales {
    private static final long[] POWERS = new long[19];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * 10;
        }
    }

    private Scales() {
    }

    /** 10^n for n in 0..18. */
    static long power(final int n) {
        return POWERS[n];
    }

    /** The scale of an exact numeric type (0 for integers and dates). */
    static int scale(final DataType t) {
        return t.kind() == DataType.Kind.DECIMAL || t.kind() == DataType.Kind.DECIMAL128 ? t.scale() : 0;
    }

    /** Checks that an evaluator is an exact number (integer, decimal, or date when dates are allowed). */
    static void requireNumeric(final Evaluator e, final String where, final boolean allowDate) {
        final DataType.Kind k = e.type().kind();
        final boolean ok = k == DataType.Kind.INT64 || k == DataType.Kind.INT32 || k == DataType.Kind.DECIMAL
                || (allowDate && k == DataType.Kind.DATE);
        if (!ok) {
            throw new IllegalArgumentException(where + ": operand " + e + " has type " + e.type()
                    + ", expected an integer or decimal" + (allowDate ? " or a date" : ""));
        }
    }

    /** An evaluator of {@code e} scaled up to {@code scale} (exact, overflow checked; NULL rows
     * stay NULL and are not scaled), or {@code e} itself. */
    static Evaluator rescale(final Evaluator e, final int scale) {
        final int from = scale(e.type());
        if (from == scale) {
            return e;
        }
        final long factor = power(scale - from);
        return new Evaluator(DataType.decimal(scale)) {
            private final long[] out = new long[MAX_ROWS];

            @Override
            public long[] longs(final Batch batch) {
                final long[] in = e.longs(batch);
                final long[] nullRows = e.nulls(batch);
                final int n = batch.rowCount();
                if (nullRows == null) {
                    for (int i = 0; i < n; i++) {
                        out[i] = Math.multiplyExact(in[i], factor);
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = NullMask.isNull(nullRows, i) ? 0 : Math.multiplyExact(in[i], factor);
                    }
                }
                return out;
            }

            @Override
            public long[] nulls(final Batch batch) {
                return e.nulls(batch);
            }

            @Override
            public String toString() {
                return e.toString();
            }
        };
    }
}
