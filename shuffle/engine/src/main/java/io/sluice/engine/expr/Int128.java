package io.sluice.engine.expr;

import io.sluice.format.Decimal128Vector;
import java.math.BigInteger;

/**
 * Exact arithmetic on 128-bit two's complement integers held as a signed high and an unsigned low
 * long, writing into caller-owned arrays. Overflow beyond 128 bits throws {@link ArithmeticException}.
 */
final class Int128 {
    private static final BigInteger MIN = BigInteger.ONE.shiftLeft(127).negate();
    private static final BigInteger MAX = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);

    private Int128() {
    }

    /** {@code a + b} into {@code high[i]:low[i]}. */
    static void add(final long ah, final long al, final long bh, final long bl, final long[] high, final long[] low,
                    final int i) {
        final long l = al + bl;
        final long carry = Long.compareUnsigned(l, al) < 0 ? 1 : 0;
        high[i] = Math.addExact(Math.addExact(ah, bh), carry);
        low[i] = l;
    }

    /** {@code a - b} into {@code high[i]:low[i]}. */
    static void subtract(final long ah, final long al, final long bh, final long bl, final long[] high,
                         final long[] low, final int i) {
        final long borrow = Long.compareUnsigned(al, bl) < 0 ? 1 : 0;
        high[i] = Math.subtractExact(Math.subtractExact(ah, bh), borrow);
        low[i] = al - bl;
    }

    /** {@code a * b} into {@code high[i]:low[i]}; exact in two multiplications when both fit a long. */
    static void multiply(final long ah, final long al, final long bh, final long bl, final long[] high,
                         final long[] low, final int i) {
        if (ah == (al >> 63) && bh == (bl >> 63)) {
            high[i] = Math.multiplyHigh(al, bl);
            low[i] = al * bl;
            return;
        }
        set(Decimal128Vector.toBigInteger(ah, al).multiply(Decimal128Vector.toBigInteger(bh, bl)), high, low, i);
    }

    /** A value into {@code high[i]:low[i]}, or an error when it needs more than 128 bits. */
    static void set(final BigInteger value, final long[] high, final long[] low, final int i) {
        if (value.compareTo(MIN) < 0 || value.compareTo(MAX) > 0) {
            throw new ArithmeticException(value + " is beyond the 128 bits of a DECIMAL128");
        }
        high[i] = value.shiftRight(64).longValue();
        low[i] = value.longValue();
    }

    /** The value as the nearest double after dividing by {@code 10^scale}. */
    static double toDouble(final long h, final long l, final int scale, final double divisor) {
        if (h == (l >> 63)) {
            return l / divisor;
        }
        return new java.math.BigDecimal(Decimal128Vector.toBigInteger(h, l), scale).doubleValue();
    }
}
