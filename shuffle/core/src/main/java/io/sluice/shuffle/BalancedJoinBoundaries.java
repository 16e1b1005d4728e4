package io.sluice.shuffle;

import io.sluice.format.TypeKind;
import io.sluice.zonemap.KeyQuantiles;
import io.sluice.zonemap.KeySpace;
import java.util.Locale;

/**
 * Range boundaries for a shuffle join whose probe's heavy keys are dispatched apart, cut so that both sides
 * are balanced. The build side follows the probe's boundaries; cut at the probe's quantiles alone, a range
 * holding one of the keys just below the heavy share (Zipf's next ones) covers few other keys and a range
 * without one covers many, so a build side of about one row per key (a dimension) gets a quarter more rows in
 * some buckets than the mean. The probe's other keys need not be even, though: the heavy probe rows may go to
 * any bucket and fill the emptiest first, so every bucket ends level as long as none holds more of the other
 * rows than that level, (other rows + heavy rows) / buckets.
 *
 * <p>The cut points are the ones with the least bound {@code r} such that no bucket gets more than {@code r}
 * times the build's mean rows nor more of the probe's other rows than the level less a headroom
 * ({@link #HEAVY_HEADROOM} of a bucket's heavy rows): a bisection on {@code r},
 * each {@code r} checked by one sweep that extends every bucket as far as both bounds allow (cutting as late as
 * both bounds allow fits the rows into the fewest ranges any cuts can). Cut points fall on whole keys, so a key
 * is never split.
 */
public final class BalancedJoinBoundaries {
    /**
     * The share of each bucket's heavy rows kept free of other probe rows. Every sender places its heavy rows
     * from its own counts of the other keys, as if each CN held as many (a table's blocks spread over CNs
     * unevenly), so some heavy rows in every bucket are left to even out what those estimates miss: on
     * skew-1 TPC-H at 7x8 the probe's max/mean is 1.050 with the probe's quantiles alone, 1.055 with a quarter
     * kept free and 1.06 with none, while the build's is 1.185, 1.016 and 1.003.
     */
    static final double HEAVY_HEADROOM = 0.25;
    /** Halvings of the build's bound: far below a row per bucket for any table. */
    private static final int STEPS = 30;

    private BalancedJoinBoundaries() {
    }

    /**
     * Cut points balancing both sides of a join, or null where none fit (the keys' kinds differ, a side has no
     * values, or a single key overfills a bucket).
     *
     * @param probeRest the probe key's statistics without its heavy keys ({@link KeyQuantiles#without})
     * @param heavyRows the probe rows of the heavy keys, which fill the emptiest buckets; 0 or more
     * @param buildRest the build key's statistics without the heavy keys, whose build rows every bucket gets
     * @param topology  the CNs x cores to size the buckets to
     * @return the boundaries ({@link BoundaryMethod#RANGE_QUANTILE}), or null
     * @throws IllegalArgumentException when an argument is null or {@code heavyRows} is negative or NaN
     */
    public static RangeBoundaries plan(final KeyQuantiles probeRest, final double heavyRows,
                                       final KeyQuantiles buildRest, final Topology topology) {
        if (probeRest == null || buildRest == null || topology == null || !(heavyRows >= 0)) {
            throw new IllegalArgumentException("balancing a join's boundaries needs both keys' statistics, a topology"
                    + " and the heavy rows (0 or more), got probe=" + probeRest + ", heavyRows=" + heavyRows
                    + ", build=" + buildRest + ", topology=" + topology);
        }
        final int buckets = topology.bucketCount();
        if (buckets < 2 || probeRest.kind() != buildRest.kind() || !probeRest.hasValues() || !buildRest.hasValues()) {
            return null;
        }
        final Sweep sweep = new Sweep(probeRest, buildRest,
                (total(probeRest) + (1 - HEAVY_HEADROOM) * heavyRows) / buckets,
                total(buildRest) / buckets, buckets);
        double infeasible = 1;
        double feasible = 1;
        long[] cuts = sweep.cuts(feasible);
        while (cuts == null) {
            if (feasible >= buckets) {
                return null;
            }
            infeasible = feasible;
            feasible = Math.min(buckets, 2 * feasible);
            cuts = sweep.cuts(feasible);
        }
        for (int i = 0; i < STEPS && feasible > infeasible; i++) {
            final double r = (infeasible + feasible) / 2;
            final long[] tried = sweep.cuts(r);
            if (tried == null) {
                infeasible = r;
            } else {
                feasible = r;
                cuts = tried;
            }
        }
        return RangeBoundaries.quantile(topology, probeRest.kind(), String.format(Locale.ROOT,
                "cut for both sides: each bucket at most %.0f of the probe's other rows (below the level the"
                        + " heavy rows fill to) and %.3f x the build's mean", sweep.probeCap, feasible), cuts);
    }

    /** Non-null rows the statistics' density holds (without the keys left out of them). */
    private static double total(final KeyQuantiles q) {
        return q.rowsBelow(q.keyWithRowsBelow(Double.MAX_VALUE));
    }

    /** One greedy sweep over both sides' keys per bound. */
    private static final class Sweep {
        private final KeyQuantiles probe;
        private final KeyQuantiles build;
        private final TypeKind kind;
        private final double probeCap;
        private final double buildMean;
        private final double probeTotal;
        private final double buildTotal;
        private final int buckets;

        Sweep(final KeyQuantiles probe, final KeyQuantiles build, final double probeCap, final double buildMean,
              final int buckets) {
            this.probe = probe;
            this.build = build;
            this.kind = probe.kind();
            this.probeCap = probeCap;
            this.buildMean = buildMean;
            this.probeTotal = total(probe);
            this.buildTotal = total(build);
            this.buckets = buckets;
        }

        /** Signed cut points with no bucket above the caps at bound {@code r}, or null when they do not fit. */
        long[] cuts(final double r) {
            final double buildCap = r * buildMean;
            final long[] cuts = new long[buckets - 1];
            double probeBelow = 0;
            double buildBelow = 0;
            long start = Long.MIN_VALUE;
            for (int i = 0; i < cuts.length; i++) {
                final long at = Math.min(limit(probe, probeTotal, probeBelow + probeCap),
                        limit(build, buildTotal, buildBelow + buildCap));
                if (at == Long.MAX_VALUE) {
                    // Both sides' rest fits this bucket: the buckets after it are empty, past both sides' keys.
                    final long end = Math.max(KeySpace.endOf(KeySpace.toSigned(kind, probe.max())),
                            KeySpace.endOf(KeySpace.toSigned(kind, build.max())));
                    if (end > Long.MAX_VALUE - buckets) {
                        return null;
                    }
                    for (int j = i; j < cuts.length; j++) {
                        cuts[j] = end + (j - i);
                    }
                    return cuts;
                }
                if (at <= start) {
                    return null;
                }
                cuts[i] = at;
                start = at;
                probeBelow = probe.rowsBelow(KeySpace.fromSigned(kind, at));
                buildBelow = build.rowsBelow(KeySpace.fromSigned(kind, at));
            }
            // Rounding slack: a bound met to within a millionth of a row per bucket is met.
            final boolean fits = probeTotal - probeBelow <= probeCap + 1e-6
                    && buildTotal - buildBelow <= buildCap + 1e-6;
            return fits ? cuts : null;
        }

        /** The greatest signed key with at most {@code rows} of a side below it; none when every row fits. */
        private long limit(final KeyQuantiles side, final double total, final double rows) {
            return rows >= total ? Long.MAX_VALUE : KeySpace.toSigned(kind, side.keyWithRowsBelow(rows));
        }
    }
}
