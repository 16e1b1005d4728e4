package io.sluice.engine.expr;

import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * A constant: a long (integer, scaled decimal, epoch day, DOUBLE bits or a BOOLEAN as 0/1), a
 * string, or the typed NULL of any type ({@link #isNull()}, no value). It evaluates to a column of
 * equal values, filled once; comparisons and IN lists read {@link #value()} directly.
 */
public record Literal(DataType type, long value, String string, boolean isNull) implements Expr {
    public Literal {
        if (type == null) {
            throw new IllegalArgumentException("a literal needs a type, got value " + value + ", string " + string);
        }
        if (isNull && (string != null || value != 0)) {
            throw new IllegalArgumentException("the NULL literal of type " + type + " has no value, got value " + value
                    + ", string " + string);
        }
        if (!isNull && (string != null) != (type.kind() == DataType.Kind.STRING)) {
            throw new IllegalArgumentException(string == null
                    ? "a string literal needs its string: write it with Expr.str"
                    : "a " + type + " literal holds a long, not the string '" + string + "'");
        }
    }

    /** A constant that is not NULL. */
    public Literal(final DataType type, final long value, final String string) {
        this(type, value, string, false);
    }

    static Literal ofLong(final long value) {
        return new Literal(DataType.INT64, value, null);
    }

    static Literal ofDecimal(final BigDecimal value) {
        final int scale = Math.max(0, value.scale());
        return new Literal(DataType.decimal(scale), value.setScale(scale).unscaledValue().longValueExact(), null);
    }

    static Literal ofDate(final LocalDate date) {
        return new Literal(DataType.DATE, date.toEpochDay(), null);
    }

    static Literal ofString(final String value) {
        return new Literal(DataType.STRING, 0, value);
    }

    /** The NULL of a type. */
    static Literal ofNull(final DataType type) {
        return new Literal(type, 0, null, true);
    }

    /** Whether an expression is a NULL literal. */
    static boolean isNullLiteral(final Expr e) {
        return e instanceof Literal l && l.isNull();
    }

    @Override
    public Evaluator bind(final RowType input) {
        return new Evaluator(type) {
            private final long[] values = filled();
            private final long[] highs = type.isWide() ? signs() : null;
            private final boolean[] bools = type.kind() == DataType.Kind.BOOLEAN ? truths() : null;
            private final long[] nulls = isNull ? NullRows.all() : null;
            private final StringVector strings = type.kind() == DataType.Kind.STRING ? constantStrings() : null;

            private long[] filled() {
                if (type.kind() == DataType.Kind.STRING) {
                    return null;
                }
                final long[] v = new long[MAX_ROWS];
                Arrays.fill(v, value);
                return v;
            }

            private long[] signs() {
                final long[] v = new long[MAX_ROWS];
                Arrays.fill(v, value >> 63);
                return v;
            }

            private boolean[] truths() {
                final boolean[] v = new boolean[MAX_ROWS];
                Arrays.fill(v, value != 0);
                return v;
            }

            private StringVector constantStrings() {
                return StringVector.dictionary(new int[MAX_ROWS], StringVector.of(isNull ? "" : string), MAX_ROWS,
                        nulls);
            }

            @Override
            public long[] longs(final Batch batch) {
                return values == null || highs != null ? super.longs(batch) : values;
            }

            @Override
            public long[] highs(final Batch batch) {
                return highs == null ? super.highs(batch) : highs;
            }

            @Override
            public long[] lows(final Batch batch) {
                return highs == null ? super.lows(batch) : values;
            }

            @Override
            public boolean[] bools(final Batch batch) {
                return bools == null ? super.bools(batch) : bools;
            }

            @Override
            public long[] nulls(final Batch batch) {
                return nulls;
            }

            @Override
            public StringVector strings(final Batch batch) {
                return strings == null ? super.strings(batch) : strings;
            }

            @Override
            public String toString() {
                return Literal.this.toString();
            }
        };
    }

    @Override
    public String toString() {
        if (isNull) {
            return "NULL::" + type;
        }
        if (string != null) {
            return "'" + string + "'";
        }
        return switch (type.kind()) {
            case DECIMAL, DECIMAL128 -> BigDecimal.valueOf(value, type.scale()).toPlainString();
            case DATE -> "DATE '" + LocalDate.ofEpochDay(value) + "'";
            case BOOLEAN -> value != 0 ? "TRUE" : "FALSE";
            case DOUBLE -> Double.toString(Double.longBitsToDouble(value));
            default -> Long.toString(value);
        };
    }
}
