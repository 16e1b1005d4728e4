package io.sluice.format;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A column's logical type: its {@link TypeKind} plus precision and scale for decimals.
 *
 * <p>The text form, used by schemas on the command line and in manifests, is one of
 * {@code int64}, {@code int32}, {@code decimal(p,s)}, {@code date}, {@code string}; a
 * {@code decimal(p,s)} with p over {@link #MAX_DECIMAL_PRECISION} is a {@link TypeKind#DECIMAL128}.
 *
 * @param kind      the physical kind
 * @param precision total decimal digits, 1 to {@link #MAX_DECIMAL_PRECISION} for DECIMAL,
 *                  {@code MAX_DECIMAL_PRECISION + 1} to {@link #MAX_DECIMAL128_PRECISION} for DECIMAL128, 0 otherwise
 * @param scale     digits after the point, 0 to {@code precision} (at most 18) for decimals, 0 otherwise
 */
public record ColumnType(TypeKind kind, int precision, int scale) {
    /** Largest precision a scaled long holds exactly. */
    public static final int MAX_DECIMAL_PRECISION = 18;
    /** Largest precision of a DECIMAL128 (a 128-bit integer holds 38 digits exactly). */
    public static final int MAX_DECIMAL128_PRECISION = 38;

    /** The {@code int64} type: a 64-bit signed integer. */
    public static final ColumnType INT64 = new ColumnType(TypeKind.INT64, 0, 0);
    /** The {@code int32} type: a 32-bit signed integer. */
    public static final ColumnType INT32 = new ColumnType(TypeKind.INT32, 0, 0);
    /** The {@code date} type: days since 1970-01-01. */
    public static final ColumnType DATE = new ColumnType(TypeKind.DATE, 0, 0);
    /** The {@code string} type: UTF-8 text of any length. */
    public static final ColumnType STRING = new ColumnType(TypeKind.STRING, 0, 0);

    private static final Pattern DECIMAL_PATTERN =
            Pattern.compile("decimal\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

    /**
     * Checks precision and scale against the kind.
     *
     * @param kind      the physical kind
     * @param precision total decimal digits, 1 to {@link #MAX_DECIMAL_PRECISION} for DECIMAL, 19 to
     *                  {@link #MAX_DECIMAL128_PRECISION} for DECIMAL128, 0 otherwise
     * @param scale     digits after the point, 0 to {@code precision} (at most 18) for decimals, 0 otherwise
     * @throws IllegalArgumentException when a decimal's precision or scale is out of range, or another
     *                                  kind has either
     */
    public ColumnType {
        if (kind == TypeKind.DECIMAL) {
            if (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision) {
                throw new IllegalArgumentException("decimal(" + precision + "," + scale + ") is not supported:"
                        + " precision must be 1.." + MAX_DECIMAL_PRECISION + " and scale 0..precision");
            }
        } else if (kind == TypeKind.DECIMAL128) {
            if (precision <= MAX_DECIMAL_PRECISION || precision > MAX_DECIMAL128_PRECISION || scale < 0
                    || scale > MAX_DECIMAL_PRECISION) {
                throw new IllegalArgumentException("decimal(" + precision + "," + scale + ") is not supported:"
                        + " a 128-bit decimal has precision " + (MAX_DECIMAL_PRECISION + 1) + ".."
                        + MAX_DECIMAL128_PRECISION + " and scale 0.." + MAX_DECIMAL_PRECISION);
            }
        } else if (precision != 0 || scale != 0) {
            throw new IllegalArgumentException(kind + " takes no precision or scale");
        }
    }

    /**
     * A DECIMAL(precision, scale) type: a DECIMAL up to {@link #MAX_DECIMAL_PRECISION} digits, a
     * DECIMAL128 beyond.
     *
     * @param precision total digits, 1 to {@link #MAX_DECIMAL128_PRECISION}
     * @param scale     digits after the point, 0 to {@code precision} (at most 18)
     * @return the type; its values are longs (or 128-bit integers) scaled by 10^scale
     * @throws IllegalArgumentException when precision or scale is out of range
     */
    public static ColumnType decimal(final int precision, final int scale) {
        return new ColumnType(precision > MAX_DECIMAL_PRECISION ? TypeKind.DECIMAL128 : TypeKind.DECIMAL,
                precision, scale);
    }

    /**
     * Parses the text form; the error lists the accepted forms.
     *
     * @param text {@code int64}, {@code int32}, {@code decimal(p,s)}, {@code date} or {@code string}
     *             (also {@code bigint}, {@code long}, {@code int}, {@code integer}, {@code varchar},
     *             {@code text}), in any case, surrounding spaces ignored
     * @return the type
     * @throws IllegalArgumentException when the text is none of those
     */
    public static ColumnType parse(final String text) {
        final String t = text.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "int64", "bigint", "long" -> {
                return INT64;
            }
            case "int32", "int", "integer" -> {
                return INT32;
            }
            case "date" -> {
                return DATE;
            }
            case "string", "varchar", "text" -> {
                return STRING;
            }
            default -> {
                final Matcher m = DECIMAL_PATTERN.matcher(t);
                if (m.matches()) {
                    return decimal(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
                }
                throw new IllegalArgumentException("unknown column type '" + text + "': use int64 (also bigint,"
                        + " long), int32 (int, integer), decimal(p,s), date or string (varchar, text), in any case");
            }
        }
    }

    @Override
    public String toString() {
        return kind == TypeKind.DECIMAL || kind == TypeKind.DECIMAL128
                ? "decimal(" + precision + "," + scale + ")"
                : kind.name().toLowerCase(Locale.ROOT);
    }
}
