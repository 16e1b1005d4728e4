package io.sluice.engine.expr;

import io.sluice.format.NullMask;

/**
 * Null bitmaps of evaluators ({@link io.sluice.format.NullMask} layout): the union of operands'
 * NULL rows into caller-owned scratch, a constant all-NULL bitmap. Null stands for "no NULL row"
 * throughout, so that inputs without NULLs cost one reference test.
 */
final class NullRows {
    /** Words of a bitmap covering a full batch. */
    static final int WORDS = NullMask.words(Evaluator.MAX_ROWS);

    private NullRows() {
    }

    /** A bitmap with every row of a full batch NULL. */
    static long[] all() {
        final long[] mask = new long[WORDS];
        java.util.Arrays.fill(mask, -1L);
        return mask;
    }

    /**
     * The rows NULL in {@code a} or in {@code b} over the first {@code rows} rows: one of them when
     * the other is null (no copy), else their union written into {@code scratch}.
     */
    static long[] union(final long[] a, final long[] b, final long[] scratch, final int rows) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        final int words = NullMask.words(rows);
        for (int w = 0; w < words; w++) {
            scratch[w] = a[w] | b[w];
        }
        return scratch;
    }

    /** Whether any of the first {@code rows} rows is NULL in a bitmap that may be null. */
    static boolean any(final long[] mask, final int rows) {
        return mask != null && NullMask.count(mask, rows) > 0;
    }
}
