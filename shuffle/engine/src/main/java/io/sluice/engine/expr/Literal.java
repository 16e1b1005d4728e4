package io.sluice.engine.expr;

import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * A constant: a long (integer, scaled decimal or epoch day) or a string. It evaluates to a
 * column of equal values, filled once; comparisons and IN lists read {@link #value()} directly.
 */
public record Literal(DataType type, long value, String string) implements Expr {
    public Literal {
        if (type == null) {
            throw new IllegalArgumentException("a literal needs a type, got value " + value + ", string " + string);
        }
        if ((string != null) != (type.kind() == DataType.Kind.STRING)) {
            throw new IllegalArgumentException(string == null
                    ? "a string literal needs its string: write it with Expr.str"
                    : "a " + type + " literal holds a long, not the string '" + string + "'");
        }
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

    @Override
    public Evaluator bind(final RowType input) {
        return new Evaluator(type) {
            private final long[] values = filled();
            private final StringVector strings = string == null ? null : constantStrings();

            private long[] filled() {
                if (string != null) {
                    return null;
                }
                final long[] v = new long[MAX_ROWS];
                Arrays.fill(v, value);
                return v;
            }

            private StringVector constantStrings() {
                return StringVector.dictionary(new int[MAX_ROWS], StringVector.of(string), MAX_ROWS, null);
            }

            @Override
            public long[] longs(final Batch batch) {
                return values == null ? super.longs(batch) : values;
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
        if (string != null) {
            return "'" + string + "'";
        }
        return switch (type.kind()) {
            case DECIMAL -> BigDecimal.valueOf(value, type.scale()).toPlainString();
            case DATE -> "DATE '" + LocalDate.ofEpochDay(value) + "'";
            default -> Long.toString(value);
        };
    }
}
