package io.sluice.format;

/** Helpers for null bitmaps: one bit per row in {@code long} words, bit set means null. */
public final class NullMask {
    private NullMask() {
    }

    /** Words needed for a number of rows. */
    public static int words(final int rows) {
        return (rows + 63) >>> 6;
    }

    /** Whether a row's bit is set. */
    public static boolean isNull(final long[] mask, final int row) {
        return (mask[row >>> 6] & (1L << row)) != 0;
    }

    /** Sets a row's bit. */
    public static void setNull(final long[] mask, final int row) {
        mask[row >>> 6] |= 1L << row;
    }

    /** Number of set bits among the first {@code rows} rows. */
    public static int count(final long[] mask, final int rows) {
        if (mask == null) {
            return 0;
        }
        int count = 0;
        final int full = rows >>> 6;
        for (int w = 0; w < full; w++) {
            count += Long.bitCount(mask[w]);
        }
        final int rest = rows & 63;
        if (rest != 0) {
            count += Long.bitCount(mask[full] & ((1L << rest) - 1));
        }
        return count;
    }
}
