package io.sluice.format;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A vector of DECIMAL128 values: 128-bit two's complement integers scaled by 10^scale, each row's
 * value the pair {@code high[row]:low[row]} (the high half signed, the low half its unsigned low
 * 64 bits). SUM of decimals and integers outputs these, so that a sum never overflows.
 *
 * <p>Its zonemap key ({@link #key}) saturates: a value inside the long range is its own key, one
 * above it {@link Long#MAX_VALUE}, one below it {@link Long#MIN_VALUE}. Saturation is monotone, so
 * the zonemap of a block is never narrower than its values: a key at a bound means "there or beyond".
 */
public final class Decimal128Vector extends ColumnVector {
    private final long[] high;
    private final long[] low;

    /**
     * A vector over existing arrays, which it keeps without copying.
     *
     * @param type     a DECIMAL128 type
     * @param high     the high halves, at least {@code rowCount} of them; null rows should hold 0
     * @param low      the low halves, at least {@code rowCount} of them; null rows should hold 0
     * @param rowCount rows in the vector, 0 or more
     * @param nulls    a null bitmap with at least {@code NullMask.words(rowCount)} words, or null
     *                 when no row is null
     * @throws IllegalArgumentException when the type is not decimal128, an array is shorter than
     *                                  {@code rowCount}, or the bitmap is too short
     */
    public Decimal128Vector(final ColumnType type, final long[] high, final long[] low, final int rowCount,
                            final long[] nulls) {
        super(type, rowCount, nulls);
        if (type.kind() != TypeKind.DECIMAL128) {
            throw new IllegalArgumentException("a Decimal128Vector holds decimal128, not " + type);
        }
        if (high.length < rowCount || low.length < rowCount) {
            throw new IllegalArgumentException("values hold " + Math.min(high.length, low.length)
                    + " rows, need " + rowCount);
        }
        this.high = high;
        this.low = low;
    }

    /**
     * The high halves; entries past {@link #rowCount()} are undefined, null rows hold 0.
     *
     * @return the array itself, not a copy; do not modify
     */
    public long[] high() {
        return high;
    }

    /**
     * The low halves; entries past {@link #rowCount()} are undefined, null rows hold 0.
     *
     * @return the array itself, not a copy; do not modify
     */
    public long[] low() {
        return low;
    }

    /**
     * The value at a row as an exact decimal.
     *
     * @param row the row, 0 to {@link #rowCount()} - 1
     * @return the row's value with the type's scale (0 when null)
     */
    public BigDecimal get(final int row) {
        return new BigDecimal(toBigInteger(high[row], low[row]), type().scale());
    }

    @Override
    public long key(final int row) {
        return saturate(high[row], low[row]);
    }

    /**
     * The long nearest to a 128-bit value: the value itself when it fits, else the bound beyond
     * which it lies.
     *
     * @param high the signed high half
     * @param low  the low half
     * @return the value, or {@link Long#MAX_VALUE} / {@link Long#MIN_VALUE} when it lies above / below
     */
    public static long saturate(final long high, final long low) {
        if (high == (low >> 63)) {
            return low;
        }
        return high < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }

    /**
     * The 128-bit two's complement integer {@code high:low}.
     *
     * @param high the signed high half
     * @param low  the low half
     * @return the integer
     */
    public static BigInteger toBigInteger(final long high, final long low) {
        return BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
    }

    /**
     * Compares two 128-bit values, signed.
     *
     * @param highA the first value's high half
     * @param lowA  the first value's low half
     * @param highB the second value's high half
     * @param lowB  the second value's low half
     * @return negative, zero or positive as the first is less than, equal to or greater than the second
     */
    public static int compare(final long highA, final long lowA, final long highB, final long lowB) {
        return highA != highB ? Long.compare(highA, highB) : Long.compareUnsigned(lowA, lowB);
    }
}
