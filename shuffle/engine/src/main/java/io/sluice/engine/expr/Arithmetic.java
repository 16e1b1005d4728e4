package io.sluice.engine.expr;

import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;

/**
 * {@code a + b}, {@code a - b}, {@code a * b} over integers and decimals with exact scale
 * arithmetic: sums align to the larger scale, products add scales (DECIMAL(15,2) * DECIMAL(15,2)
 * has scale 4), in 128 bits when an operand is a DECIMAL128 (a SUM); and a date plus or minus a number of days. Overflow throws
 * {@link ArithmeticException}, never wraps. The result is NULL where an operand is NULL.
 */
public record Arithmetic(Op op, Expr left, Expr right) implements Expr {
    /** The operators. */
    public enum Op { ADD, SUB, MUL }

    @Override
    public Evaluator bind(final RowType input) {
        Evaluator a = left.bind(input);
        Evaluator b = right.bind(input);
        final boolean dates = a.type().kind() == DataType.Kind.DATE || b.type().kind() == DataType.Kind.DATE;
        if (dates) {
            requireDateSum(a, b);
            return exact(DataType.DATE, a, b);
        }
        if (a.type().isWide() || b.type().isWide()) {
            return Decimal128Values.arithmetic(op, a, b, toString());
        }
        Scales.requireNumeric(a, toString(), false);
        Scales.requireNumeric(b, toString(), false);
        final int sa = Scales.scale(a.type());
        final int sb = Scales.scale(b.type());
        final boolean decimal = a.type().kind() == DataType.Kind.DECIMAL || b.type().kind() == DataType.Kind.DECIMAL;
        final int scale;
        if (op == Op.MUL) {
            scale = sa + sb;
        } else {
            scale = Math.max(sa, sb);
            a = Scales.rescale(a, scale);
            b = Scales.rescale(b, scale);
        }
        if (scale > 18) {
            throw new IllegalArgumentException(this + " needs scale " + scale + ", beyond the 18 digits of a long");
        }
        return exact(decimal ? DataType.decimal(scale) : DataType.INT64, a, b);
    }

    /** Checks a date sum: {@code date + days}, {@code days + date} or {@code date - days}, the days an integer. */
    private void requireDateSum(final Evaluator a, final Evaluator b) {
        final boolean da = a.type().kind() == DataType.Kind.DATE;
        final boolean db = b.type().kind() == DataType.Kind.DATE;
        final boolean ia = a.type().kind() == DataType.Kind.INT64 || a.type().kind() == DataType.Kind.INT32;
        final boolean ib = b.type().kind() == DataType.Kind.INT64 || b.type().kind() == DataType.Kind.INT32;
        final boolean ok = op == Op.ADD ? (da && ib) || (ia && db) : op == Op.SUB && da && ib;
        if (!ok) {
            throw new IllegalArgumentException(this + ": a date takes + or - a number of days (an integer), got "
                    + a.type() + " and " + b.type());
        }
    }

    private Evaluator exact(final DataType type, final Evaluator x, final Evaluator y) {
        return new Evaluator(type) {
            private final long[] out = new long[MAX_ROWS];
            private final long[] nullScratch = new long[NullRows.WORDS];

            @Override
            public long[] longs(final Batch batch) {
                final long[] l = x.longs(batch);
                final long[] r = y.longs(batch);
                final int n = batch.rowCount();
                final long[] nullRows = nulls(batch);
                if (nullRows != null) {
                    return withNulls(l, r, nullRows, n);
                }
                switch (op) {
                    case ADD -> {
                        for (int i = 0; i < n; i++) {
                            out[i] = Math.addExact(l[i], r[i]);
                        }
                    }
                    case SUB -> {
                        for (int i = 0; i < n; i++) {
                            out[i] = Math.subtractExact(l[i], r[i]);
                        }
                    }
                    case MUL -> {
                        for (int i = 0; i < n; i++) {
                            out[i] = Math.multiplyExact(l[i], r[i]);
                        }
                    }
                }
                return out;
            }

            /** The values where an operand is NULL are undefined: 0, never an overflow on what lies under them. */
            private long[] withNulls(final long[] l, final long[] r, final long[] nullRows, final int n) {
                for (int i = 0; i < n; i++) {
                    if (NullMask.isNull(nullRows, i)) {
                        out[i] = 0;
                    } else {
                        out[i] = switch (op) {
                            case ADD -> Math.addExact(l[i], r[i]);
                            case SUB -> Math.subtractExact(l[i], r[i]);
                            case MUL -> Math.multiplyExact(l[i], r[i]);
                        };
                    }
                }
                return out;
            }

            @Override
            public long[] nulls(final Batch batch) {
                return NullRows.union(x.nulls(batch), y.nulls(batch), nullScratch, batch.rowCount());
            }

            @Override
            public String toString() {
                return Arithmetic.this.toString();
            }
        };
    }

    @Override
    public String toString() {
        final String symbol = switch (op) {
            case ADD -> " + ";
            case SUB -> " - ";
            case MUL -> " * ";
        };
        return "(" + left + symbol + right + ")";
    }
}
