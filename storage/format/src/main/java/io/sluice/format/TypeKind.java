package io.sluice.format;

/** The physical kinds of column Sluice stores; each maps to one vector class and one layout. */
public enum TypeKind {
    /** 64-bit signed integer, stored in a {@link LongVector}. */
    INT64(8),
    /** 32-bit signed integer, stored in an {@link IntVector}. */
    INT32(4),
    /** DECIMAL(p,s) as a long scaled by 10^s, stored in a {@link LongVector}. */
    DECIMAL(8),
    /** Days since 1970-01-01, stored in an {@link IntVector}. */
    DATE(4),
    /** Variable-length bytes (UTF-8), stored in a {@link StringVector}. */
    STRING(-1),
    /**
     * DECIMAL(p,s) with p 19 to 38 as a 128-bit integer scaled by 10^s, stored in a
     * {@link Decimal128Vector}; the kind of exact SUM results. Appended last: kinds are stored by ordinal.
     */
    DECIMAL128(16);

    private final int width;

    TypeKind(final int width) {
        this.width = width;
    }

    /**
     * Bytes per value for fixed-width kinds, -1 for {@link #STRING}.
     *
     * @return 16, 8, 4, or -1 for variable-length strings
     */
    public int width() {
        return width;
    }

    /**
     * Whether values of this kind live in a {@code long[]}.
     *
     * @return true for {@link #INT64} and {@link #DECIMAL}
     */
    public boolean isLong() {
        return width == 8;
    }

    /**
     * Whether values of this kind live in an {@code int[]}.
     *
     * @return true for {@link #INT32} and {@link #DATE}
     */
    public boolean isInt() {
        return width == 4;
    }

    /**
     * Compares two zonemap keys of this kind: signed for numbers and dates (a
     * {@link #DECIMAL128} key is its value saturated to the long range), unsigned for string
     * prefix keys (see {@link StringKey}).
     *
     * @param a the first key
     * @param b the second key
     * @return negative, zero or positive as {@code a} is less than, equal to or greater than {@code b}
     */
    public int compareKeys(final long a, final long b) {
        return this == STRING ? Long.compareUnsigned(a, b) : Long.compare(a, b);
    }
}
