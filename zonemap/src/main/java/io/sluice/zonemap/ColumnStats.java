package io.sluice.zonemap;

import io.sluice.format.StringKey;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;

/**
 * Statistics of one column derived from its per-block zonemaps alone: row and null counts, the
 * smallest and largest key, and an estimate of the distinct non-null values. {@code min} and
 * {@code max} are zonemap keys (string prefix keys for strings, compare with
 * {@link TypeKind#compareKeys}); both are 0 when no row has a value.
 *
 * <p>The distinct estimate is a planning guess. For integer-like kinds each block is taken to
 * hold {@code min(nonNull, max - min + 1)} distinct values spread uniformly over its range, and
 * overlapping blocks are merged as independent draws: disjoint blocks add up (a unique sorted key
 * gives the row count), dense overlapping blocks count their union once (ten values in every
 * block give ten). For strings, whose prefix keys carry no density, the non-null count is scaled
 * by how much the block key ranges overlap (union over sum of widths). Either way the estimate
 * never exceeds the non-null rows (nor the key range for integer-like kinds) and never falls
 * below the number of distinct block mins and maxes. Keys with duplicates spread over a sparse
 * range (order keys repeated per line) or decimals on a coarse grid (quantities in whole units)
 * are overestimated: zonemaps cannot see either.
 *
 * @param column        the column's name
 * @param kind          the column's kind, which fixes how keys compare
 * @param rowCount      rows, nulls included
 * @param nullCount     null rows
 * @param min           smallest key over all blocks
 * @param max           largest key over all blocks
 * @param distinctCount estimated distinct non-null values
 */
public record ColumnStats(String column, TypeKind kind, long rowCount, long nullCount, long min, long max,
                          long distinctCount) {
    /**
     * Checks that the counts are consistent.
     *
     * @param column        the column's name
     * @param kind          the column's kind, which fixes how keys compare
     * @param rowCount      rows, nulls included
     * @param nullCount     null rows
     * @param min           smallest key over all blocks
     * @param max           largest key over all blocks
     * @param distinctCount estimated distinct non-null values
     * @throws IllegalArgumentException when a count is negative, the nulls exceed the rows, or the
     *                                  distinct count exceeds the non-null rows; the message names the
     *                                  column
     */
    public ColumnStats {
        if (rowCount < 0 || nullCount < 0 || nullCount > rowCount) {
            throw new IllegalArgumentException("column '" + column + "': need 0 <= nullCount <= rowCount, got "
                    + nullCount + " nulls of " + rowCount + " rows");
        }
        if (distinctCount < 0 || distinctCount > rowCount - nullCount) {
            throw new IllegalArgumentException("column '" + column + "': distinct count " + distinctCount
                    + " must lie in 0.." + (rowCount - nullCount) + " (the non-null rows)");
        }
    }

    /**
     * Derives a column's statistics from its zonemaps, one per block in block order.
     *
     * @param column   the column's name, for the result and for error messages
     * @param kind     the column's kind, which fixes how keys compare
     * @param zoneMaps the column's zonemap in every block, in block order
     * @return the column's counts, key range and distinct estimate
     * @throws IllegalArgumentException when the zonemaps are absent (null or empty), hold a null
     *                                  entry, or one is inconsistent; the message names the column
     */
    public static ColumnStats of(final String column, final TypeKind kind, final ZoneMap[] zoneMaps) {
        ZoneMapChecks.requireColumn(column, kind, zoneMaps);
        return compute(column, kind, zoneMaps);
    }

    /** Computes from zonemaps that were already checked; an empty array gives an empty column. */
    static ColumnStats compute(final String column, final TypeKind kind, final ZoneMap[] zoneMaps) {
        long rows = 0;
        long nulls = 0;
        boolean any = false;
        long min = 0;
        long max = 0;
        for (final ZoneMap z : zoneMaps) {
            rows += z.rowCount();
            nulls += z.nullCount();
            if (!z.hasValues()) {
                continue;
            }
            if (!any || kind.compareKeys(z.min(), min) < 0) {
                min = z.min();
            }
            if (!any || kind.compareKeys(z.max(), max) > 0) {
                max = z.max();
            }
            any = true;
        }
        return new ColumnStats(column, kind, rows, nulls, min, max, DistinctEstimator.estimate(kind, zoneMaps));
    }

    /**
     * Rows that are not null.
     *
     * @return {@code rowCount - nullCount}
     */
    public long nonNullCount() {
        return rowCount - nullCount;
    }

    /**
     * Whether at least one row is not null (otherwise min and max mean nothing).
     *
     * @return true when some row has a value
     */
    public boolean hasValues() {
        return nullCount < rowCount;
    }

    @Override
    public String toString() {
        final String range = !hasValues() ? "no values"
                : kind == TypeKind.STRING
                ? "['" + StringKey.prefix(min) + "'.., '" + StringKey.prefix(max) + "'..]"
                : "[" + min + ", " + max + "]";
        return column + ": " + rowCount + " rows, " + nullCount + " nulls, " + range + ", ~" + distinctCount
                + " distinct";
    }
}
