package io.sluice.engine.plan;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.Expr;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.Topology;

/**
 * Decides whether a join broadcasts its build side (one hash table shared by every core) or
 * shuffles both sides by the join key (one small table per core; seed 003's shuffle join), and on
 * which kind of shuffle. Under {@link Strategy#AUTO} a build side estimated below
 * {@link StrategyConfig#joinShuffleMinBuildRows()} is broadcast; a larger one is range-shuffled
 * on boundaries from the probe key's zonemaps when they allow ranges (colocated when the probe
 * side is a scan of a table stored in key order), hash-shuffled otherwise, except that a shuffle
 * that cannot colocate moves every probe row and is chosen only from
 * {@link StrategyConfig#joinMovingShuffleMinBuildRows()} build rows. Keys that are not plain
 * columns always broadcast.
 */
final class DetermineJoinDistribution {
    private DetermineJoinDistribution() {
    }

    static LocalShuffle decide(final PlanNode.Join join, final StrategyConfig config, final PlanStats stats,
                               final Topology topology) {
        if (join.type() == JoinType.NULL_AWARE_ANTI) {
            return LocalShuffle.of(Distribution.BROADCAST, "a null-aware anti join (NOT IN) needs every build row"
                    + " on every CN: whether the build is empty or has a NULL key decides for every probe row");
        }
        for (int k = 0; k < join.probeKeys().size(); k++) {
            if (!(join.probeKeys().get(k) instanceof ColumnRef) || !(join.buildKeys().get(k) instanceof ColumnRef)) {
                return LocalShuffle.of(Distribution.BROADCAST, "join keys are expressions, a shuffle needs columns");
            }
        }
        final Strategy strategy = config.strategy();
        if (strategy == Strategy.BROADCAST) {
            return LocalShuffle.of(Distribution.BROADCAST, "forced");
        }
        if (strategy == Strategy.SHUFFLE_HASH) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, "forced");
        }
        if (strategy == Strategy.HYBRID) {
            return LocalShuffle.of(Distribution.HYBRID, "forced");
        }
        final String why;
        final long buildRows = stats.rows(join.build());
        if (strategy == Strategy.AUTO) {
            if (buildRows < config.joinShuffleMinBuildRows()) {
                return LocalShuffle.of(Distribution.BROADCAST, "build side ~" + buildRows + " rows < "
                        + config.joinShuffleMinBuildRows());
            }
            why = "build side ~" + buildRows + " rows >= " + config.joinShuffleMinBuildRows();
        } else {
            why = "forced";
        }
        final String key = ((ColumnRef) join.probeKeys().get(0)).name();
        final RangeBoundaries boundaries = stats.boundaries(join.probe(), key, topology);
        final boolean colocatable = boundaries != null && boundaries.isRange() && stats.scanSortedBy(join.probe(), key);
        if (strategy == Strategy.AUTO && !colocatable && buildRows < config.joinMovingShuffleMinBuildRows()) {
            return LocalShuffle.of(Distribution.BROADCAST, why + ", but the probe side is not stored by " + key
                    + ", so a shuffle would move every probe row; that pays from "
                    + config.joinMovingShuffleMinBuildRows() + " build rows");
        }
        if (boundaries == null) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, why + "; probe key " + key + " has no zonemaps");
        }
        if (!boundaries.isRange()) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, why + "; no ranges on " + key + ": "
                    + boundaries.explanation());
        }
        final boolean colocate = strategy == Strategy.COLOCATE || strategy == Strategy.AUTO && colocatable;
        return new LocalShuffle(colocate ? Distribution.COLOCATE : Distribution.SHUFFLE_RANGE, boundaries, key,
                why + "; " + boundaries.method() + " on " + key);
    }

    /** The name of a key column. */
    static String name(final Expr key) {
        return ((ColumnRef) key).name();
    }
}
