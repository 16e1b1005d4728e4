package io.sluice.engine.plan;

import java.util.Locale;

/**
 * Decides where a nested-loop join runs on a cluster. Its build side is materialized once per CN and
 * every probe row meets every build row, so the pairs are computed where the probe rows are: the build
 * side is copied to every CN ({@link Distribution#BROADCAST}), or, when the probe rows are all on the
 * coordinator (after a merge group-by, an ORDER BY, a LIMIT), gathered there ({@link Distribution#GATHER})
 * and one CN computes every pair. Such a probe side is instead spread round-robin over every CN's
 * cores ({@link Distribution#ROUND_ROBIN}, Trino's ROUND_ROBIN fragment: even load, no key) when the
 * build side is spread over the CNs and estimated below {@link StrategyConfig#joinShuffleMinBuildRows()}
 * rows, cheap to copy to every CN: each CN then computes its share of the pairs.
 */
final class DetermineNestedLoopDistribution {
    private DetermineNestedLoopDistribution() {
    }

    /**
     * @param probeOnCoordinator whether the probe rows are all on the coordinator of a cluster
     * @param buildOnCoordinator whether the build rows are
     * @param cnCount            the cluster's CNs: on one, there is nowhere to spread to
     */
    static LocalShuffle decide(final PlanNode.NestedLoopJoin join, final boolean probeOnCoordinator,
                               final boolean buildOnCoordinator, final int cnCount, final StrategyConfig config,
                               final PlanStats stats) {
        if (!probeOnCoordinator) {
            return LocalShuffle.of(Distribution.BROADCAST, DistributionReason.NO_EQUALITY_KEYS, "no equality keys: every probe row meets every build row,"
                    + " where the probe rows are");
        }
        final long buildRows = stats.rows(join.build());
        if (cnCount > 1 && !buildOnCoordinator && buildRows < config.joinShuffleMinBuildRows()) {
            return LocalShuffle.of(Distribution.ROUND_ROBIN, DistributionReason.PROBE_ON_COORDINATOR_SPREAD,
                    String.format(Locale.ROOT, "the probe rows are all on the"
                    + " coordinator: spread round-robin over every CN, the build side (~%d rows < %d) copied to each,"
                    + " so every CN computes a share of the pairs", buildRows, config.joinShuffleMinBuildRows()), buildRows,
                    config.joinShuffleMinBuildRows());
        }
        return LocalShuffle.of(Distribution.GATHER, DistributionReason.PROBE_ON_COORDINATOR,
                "the probe rows are all on the coordinator"
                + (buildOnCoordinator ? ", and so are the build rows" : ": the build side (~" + buildRows
                + " rows) is gathered there"), buildRows);
    }
}
