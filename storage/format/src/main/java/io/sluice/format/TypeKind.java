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
    STRING(-1);

    private final int width;

    TypeKind(final int width) {
        this.width = width;
    }

    /** Bytes per value for fixed-width kinds, -1 for {@link #STRING}. */
    public int width() {
        return width;
    }

    /** Whether values of this kind live in a {@code long[]}. */
    public boolean isLong() {
        return width == 8;
    }

    /** Whether values of this kind live in an {@code int[]}. */
    public boolean isInt() {
        return width == 4;
    }

    /**
     * Compares two zonemap keys of this kind: signed for numbers and dates, unsigned for string
     * prefix keys (see {@link StringKey}).
     */
    public int compareKeys(final long a, final long b) {
        return this == STRING ? Long.compareUnsigned(a, b) : Long.compare(a, b);
    }
}
