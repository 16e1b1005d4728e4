package io.sluice.engine.plan;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.Topology;
import java.util.Locale;

/**
 * Decides whether a join broadcasts its build side (one hash table shared by every core) or
 * shuffles both sides by the join key (one small table per core; seed 003's shuffle join), and on
 * which kind of shuffle. Under {@link Strategy#AUTO} a build side estimated below
 * {@link StrategyConfig#joinShuffleMinBuildRows()} is broadcast. A larger one:
 * <ul>
 *   <li>on one CN (nothing crosses a network) is range-shuffled on boundaries from the probe key's
 *       zonemaps when they allow ranges (colocated when the probe side is a scan of a table stored in
 *       key order), hash-shuffled otherwise, except that a shuffle that cannot colocate moves every
 *       probe row and is chosen only from {@link StrategyConfig#joinMovingShuffleMinBuildRows()} build rows;</li>
 *   <li>on C CNs goes the way that moves the fewest estimated bytes between CNs ({@link PlanStats#bytes}):
 *       colocated, only the build side moves (B (C-1)/C); broadcast or hybrid, a copy of the build
 *       side reaches every other CN (B (C-1)); a moving shuffle sends both sides to their owners
 *       ((P + B)(C-1)/C). When copies are cheapest, a build side from
 *       {@link StrategyConfig#joinMovingShuffleMinBuildRows()} rows is hybrid (the probe side stays on its CN
 *       and is shuffled between its cores, so each core builds a table of its own keys), a smaller one
 *       broadcast.</li>
 * </ul>
 * Keys that are not plain columns always broadcast.
 */
final class DetermineJoinDistribution {
    private DetermineJoinDistribution() {
    }

    static LocalShuffle decide(final PlanNode.Join join, final StrategyConfig config, final PlanStats stats,
                               final Topology topology) {
        if (join.type() == JoinType.NULL_AWARE_ANTI) {
            return LocalShuffle.of(Distribution.BROADCAST, DistributionReason.NULL_AWARE_ANTI_JOIN, "a null-aware anti join (NOT IN) needs every build row"
                    + " on every CN: whether the build is empty or has a NULL key decides for every probe row");
        }
        for (int k = 0; k < join.probeKeys().size(); k++) {
            if (!(join.probeKeys().get(k) instanceof ColumnRef) || !(join.buildKeys().get(k) instanceof ColumnRef)) {
                return LocalShuffle.of(Distribution.BROADCAST, DistributionReason.KEYS_ARE_EXPRESSIONS, "join keys are expressions, a shuffle needs columns");
            }
        }
        final Strategy strategy = config.strategy();
        if (strategy == Strategy.BROADCAST) {
            return LocalShuffle.of(Distribution.BROADCAST, DistributionReason.FORCED, "forced");
        }
        if (strategy == Strategy.SHUFFLE_HASH) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, DistributionReason.FORCED, "forced");
        }
        if (strategy == Strategy.HYBRID) {
            return LocalShuffle.of(Distribution.HYBRID, DistributionReason.FORCED, "forced");
        }
        final String why;
        final long buildRows = stats.rows(join.build());
        if (strategy == Strategy.AUTO) {
            if (buildRows < config.joinShuffleMinBuildRows()) {
                return LocalShuffle.of(Distribution.BROADCAST, DistributionReason.SMALL_BUILD, "build side ~" + buildRows
                        + " rows < " + config.joinShuffleMinBuildRows(), buildRows, config.joinShuffleMinBuildRows());
            }
            why = "build side ~" + buildRows + " rows >= " + config.joinShuffleMinBuildRows();
        } else {
            why = "forced";
        }
        final String key = ((ColumnRef) join.probeKeys().get(0)).name();
        final RangeBoundaries boundaries = stats.boundaries(join.probe(), key, topology);
        final boolean colocatable = boundaries != null && boundaries.isRange() && stats.scanSortedBy(join.probe(), key);
        if (strategy == Strategy.AUTO && topology.cnCount() > 1 && !colocatable) {
            final long c = topology.cnCount();
            final double copies = stats.bytes(join.build()) * (c - 1);
            final double moving = (stats.bytes(join.probe()) + stats.bytes(join.build())) * (c - 1) / c;
            if (copies <= moving) {
                final String bytes = String.format(Locale.ROOT, "copies of the build side move ~%s across %d CNs, a"
                        + " shuffle of both sides ~%s", mib(copies), c, mib(moving));
                final long[] numbers = {buildRows, Math.round(copies), Math.round(moving), c,
                        config.joinMovingShuffleMinBuildRows()};
                return buildRows >= config.joinMovingShuffleMinBuildRows()
                        ? LocalShuffle.of(Distribution.HYBRID, DistributionReason.COPIES_MOVE_FEWER_BYTES, why + "; "
                                + bytes + "; from " + config.joinMovingShuffleMinBuildRows()
                                + " build rows each core builds its own keys", numbers)
                        : LocalShuffle.of(Distribution.BROADCAST, DistributionReason.COPIES_MOVE_FEWER_BYTES,
                                why + "; " + bytes, numbers);
            }
            return shuffle(boundaries, key, false, why + "; a shuffle of both sides moves fewer bytes across CNs than"
                    + " copies of the build side", DistributionReason.SHUFFLE_MOVES_FEWER_BYTES, buildRows,
                    config.joinShuffleMinBuildRows());
        }
        if (strategy == Strategy.AUTO && !colocatable && buildRows < config.joinMovingShuffleMinBuildRows()) {
            return LocalShuffle.of(Distribution.BROADCAST, DistributionReason.PROBE_NOT_STORED_BY_KEY, why
                    + ", but the probe side is not stored by " + key + ", so a shuffle would move every probe row;"
                    + " that pays from " + config.joinMovingShuffleMinBuildRows() + " build rows", buildRows,
                    config.joinMovingShuffleMinBuildRows());
        }
        final boolean forced = strategy != Strategy.AUTO;
        return shuffle(boundaries, key, strategy == Strategy.COLOCATE || strategy == Strategy.AUTO && colocatable, why,
                forced ? DistributionReason.FORCED : DistributionReason.LARGE_BUILD,
                forced ? new long[0] : new long[] {buildRows, config.joinShuffleMinBuildRows()});
    }

    /**
     * A right semi or anti join on a cluster: partitioned (on ranges when the boundaries allow), since
     * each build row is emitted where its table was probed and copies of the table on several CNs
     * would each emit it.
     */
    static LocalShuffle partitionedOnCluster(final PlanNode.Join join, final LocalShuffle planned,
                                             final PlanStats stats, final Topology topology) {
        if (planned.choice() != Distribution.BROADCAST && planned.choice() != Distribution.HYBRID) {
            return planned;
        }
        for (int k = 0; k < join.probeKeys().size(); k++) {
            if (!(join.probeKeys().get(k) instanceof ColumnRef) || !(join.buildKeys().get(k) instanceof ColumnRef)) {
                throw new IllegalArgumentException("a right semi or anti join on a cluster is partitioned by its keys,"
                        + " which must be columns, got " + join.probeKeys() + " = " + join.buildKeys()
                        + ": project the key expressions into columns first");
            }
        }
        final String key = ((ColumnRef) join.probeKeys().get(0)).name();
        final RangeBoundaries boundaries = stats.boundaries(join.probe(), key, topology);
        final boolean colocatable = boundaries != null && boundaries.isRange() && stats.scanSortedBy(join.probe(), key);
        return shuffle(boundaries, key, colocatable, planned.reason() + ", but a right semi or anti join on a"
                + " cluster emits each build row where its table was probed: partitioned",
                DistributionReason.RIGHT_JOIN_ON_CLUSTER);
    }

    /** A shuffle by the key: on ranges when the boundaries allow (colocated if {@code colocate}), else by hash. */
    private static LocalShuffle shuffle(final RangeBoundaries boundaries, final String key, final boolean colocate,
                                        final String why, final DistributionReason code, final long... numbers) {
        if (boundaries == null) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, code, why + "; probe key " + key + " has no zonemaps",
                    numbers);
        }
        if (!boundaries.isRange()) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, code, why + "; no ranges on " + key + ": "
                    + boundaries.explanation(), numbers);
        }
        return new LocalShuffle(colocate ? Distribution.COLOCATE : Distribution.SHUFFLE_RANGE, boundaries, key,
                why + "; " + boundaries.method() + " on " + key, code, numbers);
    }

    private static String mib(final double bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
    }
}
