package io.sluice.format;

/** Helpers for null bitmaps: one bit per row in {@code long} words, bit set means null. */
public final class NullMask {
    private NullMask() {
    }

    /**
     * Words needed for a number of rows.
     *
     * @param rows rows the bitmap covers, 0 or more
     * @return {@code ceil(rows / 64)}
     */
    public static int words(final int rows) {
        return (rows + 63) >>> 6;
    }

    /**
     * Whether a row's bit is set.
     *
     * @param mask a bitmap covering the row (not null)
     * @param row  the row, from 0
     * @return true when the row is null
     */
    public static boolean isNull(final long[] mask, final int row) {
        return (mask[row >>> 6] & (1L << row)) != 0;
    }

    /**
     * Sets a row's bit.
     *
     * @param mask a bitmap covering the row (not null), changed in place
     * @param row  the row to mark null, from 0
     */
    public static void setNull(final long[] mask, final int row) {
        mask[row >>> 6] |= 1L << row;
    }

    /**
     * Number of set bits among the first {@code rows} rows.
     *
     * @param mask a bitmap of at least {@code words(rows)} words, or null for no nulls
     * @param rows rows to count over; bits past them are ignored
     * @return the number of null rows, 0 when {@code mask} is null
     */
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
