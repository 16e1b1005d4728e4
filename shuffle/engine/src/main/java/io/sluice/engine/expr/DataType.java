package io.sluice.engine.expr;

import io.sluice.format.ColumnType;
import java.util.Locale;

/**
 * The type of a value flowing through a query: the stored kinds plus BOOLEAN (predicates) and
 * DOUBLE (averages). Decimals carry only their scale: their values are longs scaled by 10^scale.
 * DECIMAL128 is a decimal of up to 38 digits, a 128-bit integer scaled by 10^scale: the type of SUM
 * over exact numbers (DuckDB's DECIMAL(38,s) and HUGEINT), so that a sum never overflows.
 *
 * <p>Storage in a batch: INT64, DECIMAL and DOUBLE (raw bits) in a {@link io.sluice.format.LongVector},
 * INT32 and DATE in an {@link io.sluice.format.IntVector}, STRING in a {@link io.sluice.format.StringVector},
 * DECIMAL128 in a {@link io.sluice.format.Decimal128Vector}.
 */
public record DataType(Kind kind, int scale) {
    /** The kinds of values. */
    public enum Kind { INT64, INT32, DECIMAL, DATE, STRING, BOOLEAN, DOUBLE, DECIMAL128 }

    public static final DataType INT64 = new DataType(Kind.INT64, 0);
    public static final DataType INT32 = new DataType(Kind.INT32, 0);
    public static final DataType DATE = new DataType(Kind.DATE, 0);
    public static final DataType STRING = new DataType(Kind.STRING, 0);
    public static final DataType BOOLEAN = new DataType(Kind.BOOLEAN, 0);
    public static final DataType DOUBLE = new DataType(Kind.DOUBLE, 0);

    public DataType {
        if (kind != Kind.DECIMAL && kind != Kind.DECIMAL128 && scale != 0) {
            throw new IllegalArgumentException(kind + " takes no scale, got " + scale);
        }
        if (scale < 0 || scale > 18) {
            throw new IllegalArgumentException("decimal scale must be 0..18, got " + scale);
        }
    }

    /** A decimal with the given scale. */
    public static DataType decimal(final int scale) {
        return new DataType(Kind.DECIMAL, scale);
    }

    /** A 128-bit decimal with the given scale (scale 0: a 128-bit integer). */
    public static DataType decimal128(final int scale) {
        return new DataType(Kind.DECIMAL128, scale);
    }

    /** Whether values are 128-bit decimals, read through {@link Evaluator#highs} and {@link Evaluator#lows}. */
    public boolean isWide() {
        return kind == Kind.DECIMAL128;
    }

    /** The type of a stored column. */
    public static DataType of(final ColumnType type) {
        return switch (type.kind()) {
            case INT64 -> INT64;
            case INT32 -> INT32;
            case DECIMAL -> decimal(type.scale());
            case DECIMAL128 -> decimal128(type.scale());
            case DATE -> DATE;
            case STRING -> STRING;
        };
    }

    /** Whether values evaluate to longs: integers, decimals and dates (exact, comparable as longs). */
    public boolean isExactNumeric() {
        return kind == Kind.INT64 || kind == Kind.INT32 || kind == Kind.DECIMAL || kind == Kind.DATE;
    }

    /** Whether values are held as longs in a batch (else ints or strings). */
    public boolean isLongStored() {
        return kind == Kind.INT64 || kind == Kind.DECIMAL || kind == Kind.DOUBLE;
    }

    /** The storage column type of a vector holding these values. */
    public ColumnType storage() {
        return switch (kind) {
            case INT64, DOUBLE -> ColumnType.INT64;
            case INT32, BOOLEAN -> ColumnType.INT32;
            case DECIMAL -> ColumnType.decimal(18, scale);
            case DECIMAL128 -> ColumnType.decimal(ColumnType.MAX_DECIMAL128_PRECISION, scale);
            case DATE -> ColumnType.DATE;
            case STRING -> ColumnType.STRING;
        };
    }

    @Override
    public String toString() {
        if (kind == Kind.DECIMAL128) {
            return "decimal128(" + scale + ")";
        }
        return kind == Kind.DECIMAL ? "decimal(" + scale + ")" : kind.name().toLowerCase(Locale.ROOT);
    }
}
