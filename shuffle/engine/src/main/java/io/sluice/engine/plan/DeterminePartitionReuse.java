package io.sluice.engine.plan;

import java.util.Locale;

/**
 * Decides whether a shuffle join can use a range partitioning its sides already have instead of the
 * shuffle {@link DetermineJoinDistribution} planned (seed 001's PKEY). When one side's rows already come
 * range-bucketed on its first join key (the output of a shuffle group-by or of another shuffle join on
 * that key), only the other side moves, repartitioned by the same buckets ({@link Distribution#PKEY}),
 * or, when it is a scan stored in key order, read by colocated scans of those buckets and moving
 * nothing; when both sides come bucketed alike nothing moves ({@link Distribution#REUSE_SHUFFLE}). Two
 * sides bucketed differently keep the larger one's buckets.
 *
 * <p>It applies to joins planned as a shuffle (range, hash or colocated) under {@link Strategy#AUTO},
 * {@link Strategy#COLOCATE} and {@link Strategy#SHUFFLE_RANGE}: a forced hash shuffle stays one, and
 * broadcast and hybrid joins move no probe row anyway. Only range partitionings on the first join key
 * are reused: those are the ones whose buckets can be compared (cut points), and the first key is the
 * one a range join and its per-bucket runtime filter bucket by. {@link StrategyConfig#partitionReuse()} false
 * turns the rule off.
 */
final class DeterminePartitionReuse {
    private DeterminePartitionReuse() {
    }

    /**
     * @param planned the join's distribution without regard to its inputs
     * @param probe   the partitioning the probe side delivers, or null
     * @param build   the partitioning the build side delivers, or null
     */
    static LocalShuffle decide(final PlanNode.Join join, final LocalShuffle planned, final Partitioning probe,
                               final Partitioning build, final StrategyConfig config, final PlanStats stats) {
        final Strategy strategy = config.strategy();
        if (!config.partitionReuse()) {
            return planned;
        }
        if (strategy != Strategy.AUTO && strategy != Strategy.COLOCATE && strategy != Strategy.SHUFFLE_RANGE) {
            return planned;
        }
        if (planned.choice() != Distribution.SHUFFLE_RANGE && planned.choice() != Distribution.SHUFFLE_HASH
                && planned.choice() != Distribution.COLOCATE) {
            return planned;
        }
        final String probeKey = DeliveredPartitioning.name(join.probeKeys().get(0));
        final String buildKey = DeliveredPartitioning.name(join.buildKeys().get(0));
        final boolean probeRanged = probe != null && probe.rangeOn(probeKey);
        final boolean buildRanged = build != null && build.rangeOn(buildKey);
        if (probeRanged && buildRanged && probe.sameBuckets(build)) {
            return new LocalShuffle(Distribution.REUSE_SHUFFLE, probe.boundaries(), probeKey, "both sides already"
                    + " range-partitioned by the same buckets on " + probeKey + " and " + buildKey + ": no exchange",
                    LocalShuffle.Kept.BOTH, false, DistributionReason.BOTH_SIDES_PARTITIONED,
                    new long[] {probe.boundaries().bucketCount()});
        }
        final boolean keepProbe = probeRanged
                && (!buildRanged || stats.bytes(join.probe()) >= stats.bytes(join.build()));
        if (keepProbe) {
            return pkey(LocalShuffle.Kept.PROBE, probe, probeKey, join.build(), buildKey, "build", stats);
        }
        if (buildRanged) {
            return pkey(LocalShuffle.Kept.BUILD, build, probeKey, join.probe(), probeKey, "probe", stats);
        }
        return planned;
    }

    private static LocalShuffle pkey(final LocalShuffle.Kept kept, final Partitioning partitioning,
                                     final String probeKey, final PlanNode other, final String otherKey,
                                     final String otherName, final PlanStats stats) {
        final boolean colocated = stats.scanSortedBy(other, otherKey);
        final String keptName = kept == LocalShuffle.Kept.PROBE ? "probe" : "build";
        return new LocalShuffle(Distribution.PKEY, partitioning.boundaries(), probeKey, String.format(Locale.ROOT,
                "%s side already range-partitioned on %s (%d buckets); the %s side is %s on its %s",
                keptName, partitioning.slots().get(0), partitioning.boundaries().bucketCount(), otherName,
                colocated ? "read by colocated scans of those buckets" : "repartitioned by those buckets",
                otherKey), kept, colocated, DistributionReason.ONE_SIDE_PARTITIONED,
                new long[] {partitioning.boundaries().bucketCount()});
    }
}
