package io.sluice.zonemap;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;

/**
 * Estimates a column's number of distinct non-null values from its per-block zonemaps alone,
 * without reading any data. The result is a planning guess, not a bound, except that it is
 * never above the non-null row count, never above the key range for integer-like kinds, and
 * never below the number of distinct keys among the blocks' mins and maxes (those are real
 * values).
 *
 * <p><b>Integer-like kinds</b> (INT64, INT32, DECIMAL, DATE): block {@code b} is taken to hold
 * {@code d_b = min(nonNull_b, max_b - min_b + 1)} distinct values spread uniformly over its
 * range, i.e. each key of the range is present with probability {@code p_b = d_b / width_b}.
 * Sweeping the merged block ranges, a key covered by blocks {@code B} is present with probability
 * {@code 1 - prod_{b in B}(1 - p_b)}; the estimate sums that over all keys. Two limits show what
 * it does: blocks that do not overlap add up ({@code sum d_b}: a unique sorted key gives the row
 * count), and dense blocks that overlap count their union once (a low-cardinality column spread
 * over every block gives its value range); sparse overlapping blocks (an unsorted unique key)
 * still add up because random draws from a wide range rarely collide.
 *
 * <p><b>Strings</b>: prefix keys are not injective and have no granularity, so densities mean
 * nothing. The estimate is the non-null row count scaled by the overlap of the block key
 * ranges, {@code nonNull * union / sum(width_b)}: disjoint blocks add up, blocks that all span
 * the same range are taken to repeat each other's values. This is a weak guess either way;
 * zonemaps carry no better information for strings.
 */
final class DistinctEstimator {
    private DistinctEstimator() {
    }

    /** The estimate for one column's zonemaps (already checked); 0 when no row has a value. */
    static long estimate(final TypeKind kind, final ZoneMap[] zoneMaps) {
        int n = 0;
        for (final ZoneMap z : zoneMaps) {
            if (z.hasValues()) {
                n++;
            }
        }
        if (n == 0) {
            return 0;
        }
        final long[] mins = new long[n];
        final long[] maxs = new long[n];
        final double[] missLog = new double[n];
        final boolean[] saturated = new boolean[n];
        long nonNull = 0;
        double widthSum = 0;
        int i = 0;
        for (final ZoneMap z : zoneMaps) {
            if (!z.hasValues()) {
                continue;
            }
            mins[i] = KeySpace.toSigned(kind, z.min());
            maxs[i] = KeySpace.toSigned(kind, z.max());
            final double width = KeySpace.width(mins[i], maxs[i]) + 1.0;
            final double present = Math.min(z.nonNullCount(), width) / width;
            saturated[i] = present >= 1.0;
            missLog[i] = saturated[i] ? 0.0 : Math.log1p(-present);
            nonNull += z.nonNullCount();
            widthSum += width;
            i++;
        }
        final Sweep sweep = sweep(mins, maxs, missLog, saturated, n);
        final double raw = kind == TypeKind.STRING
                ? (double) nonNull * (sweep.union / widthSum)
                : Math.min(sweep.expected, sweep.union);
        final long estimate = Math.min(nonNull, Math.round(raw));
        return Math.max(estimate, Math.min(nonNull, sweep.distinctEndpoints));
    }

    /** What one sweep over the merged block ranges measures. */
    private record Sweep(double union, double expected, long distinctEndpoints) {
    }

    /**
     * Walks block starts and ends in key order. A boundary is a key plus a side: side 0 lies just
     * before the key (a block's min), side 1 just after it (a block's max), so the keys between
     * boundaries {@code (a, sa)} and {@code (b, sb)} number {@code b - a + sb - sa}, with no
     * overflow at the ends of the key space.
     */
    private static Sweep sweep(final long[] mins, final long[] maxs, final double[] missLog,
                               final boolean[] saturated, final int n) {
        final int[] byMin = KeySpace.sortedIndices(mins, n);
        final int[] byMax = KeySpace.sortedIndices(maxs, n);
        int s = 0;
        int e = 0;
        int activeSaturated = 0;
        int activeSparse = 0;
        double activeMissLog = 0;
        double union = 0;
        double expected = 0;
        long distinctEndpoints = 0;
        boolean first = true;
        long prevKey = 0;
        int prevSide = 0;
        while (e < n) {
            final boolean start = s < n && mins[byMin[s]] <= maxs[byMax[e]];
            final int block = start ? byMin[s] : byMax[e];
            final long key = start ? mins[block] : maxs[block];
            final int side = start ? 0 : 1;
            if (first || key != prevKey) {
                distinctEndpoints++;
            }
            if (!first && activeSaturated + activeSparse > 0) {
                final double keys = KeySpace.width(prevKey, key) + (side - prevSide);
                if (keys > 0) {
                    union += keys;
                    expected += keys * (activeSaturated > 0 ? 1.0 : -Math.expm1(activeMissLog));
                }
            }
            final int sign = start ? 1 : -1;
            if (saturated[block]) {
                activeSaturated += sign;
            } else {
                activeSparse += sign;
                // Resetting when no sparse block is active keeps rounding from piling up.
                activeMissLog = activeSparse == 0 ? 0.0 : activeMissLog + sign * missLog[block];
            }
            if (start) {
                s++;
            } else {
                e++;
            }
            first = false;
            prevKey = key;
            prevSide = side;
        }
        return new Sweep(union, expected, distinctEndpoints);
    }
}
