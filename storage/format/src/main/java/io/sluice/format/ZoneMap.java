package io.sluice.format;

/**
 * Min, max, null count and row count of one column in one block, computed when the block is
 * written and stored with it. {@code min}/{@code max} are keys: values for numbers (decimals
 * scaled, dates as days), {@link StringKey} prefix keys for strings; compare them with
 * {@link TypeKind#compareKeys}. When every row is null (or there are no rows) min and max are 0
 * and {@link #hasValues()} is false.
 *
 * @param min       the least key of the non-null rows (0 when there are none)
 * @param max       the greatest key of the non-null rows (0 when there are none)
 * @param nullCount null rows, 0 to {@code rowCount}
 * @param rowCount  rows in the block
 */
public record ZoneMap(long min, long max, int nullCount, int rowCount) {
    /** Bytes one zonemap takes in the block layout. */
    public static final int BYTES = 24;

    /**
     * Whether at least one row is not null.
     *
     * @return false when every row is null or there are no rows; min and max are then meaningless
     */
    public boolean hasValues() {
        return nullCount < rowCount;
    }

    /**
     * Rows that are not null.
     *
     * @return {@code rowCount - nullCount}
     */
    public int nonNullCount() {
        return rowCount - nullCount;
    }

    /**
     * Computes the zonemap of a vector in one pass.
     *
     * @param vector the column's values
     * @return its min and max key over the non-null rows, with its null and row counts
     */
    public static ZoneMap of(final ColumnVector vector) {
        final int rows = vector.rowCount();
        final TypeKind kind = vector.type().kind();
        final int nulls = vector.nullCount();
        if (nulls == rows) {
            return new ZoneMap(0, 0, nulls, rows);
        }
        if (nulls == 0 && vector instanceof LongVector lv) {
            final long[] v = lv.values();
            long min = v[0];
            long max = v[0];
            for (int i = 1; i < rows; i++) {
                final long x = v[i];
                min = Math.min(min, x);
                max = Math.max(max, x);
            }
            return new ZoneMap(min, max, 0, rows);
        }
        if (nulls == 0 && vector instanceof IntVector iv) {
            final int[] v = iv.values();
            int min = v[0];
            int max = v[0];
            for (int i = 1; i < rows; i++) {
                final int x = v[i];
                min = Math.min(min, x);
                max = Math.max(max, x);
            }
            return new ZoneMap(min, max, 0, rows);
        }
        boolean first = true;
        long min = 0;
        long max = 0;
        for (int i = 0; i < rows; i++) {
            if (vector.isNull(i)) {
                continue;
            }
            final long key = vector.key(i);
            if (first) {
                min = key;
                max = key;
                first = false;
            } else {
                if (kind.compareKeys(key, min) < 0) {
                    min = key;
                }
                if (kind.compareKeys(key, max) > 0) {
                    max = key;
                }
            }
        }
        return new ZoneMap(min, max, nulls, rows);
    }
}
