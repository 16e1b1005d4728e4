package io.sluice.engine.plan;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.Expr;
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
        if (strategy == Strategy.AUTO && topology.cnCount() > 1 && !colocatable) {
            final String bytes = acrossCns(join, stats, topology);
            if (bytes != null) {
                return buildRows >= config.joinMovingShuffleMinBuildRows()
                        ? LocalShuffle.of(Distribution.HYBRID, why + "; " + bytes + "; from "
                                + config.joinMovingShuffleMinBuildRows() + " build rows each core builds its own keys")
                        : LocalShuffle.of(Distribution.BROADCAST, why + "; " + bytes);
            }
            return shuffle(boundaries, key, false, why + "; a shuffle of both sides moves fewer bytes across CNs than"
                    + " copies of the build side");
        }
        if (strategy == Strategy.AUTO && !colocatable && buildRows < config.joinMovingShuffleMinBuildRows()) {
            return LocalShuffle.of(Distribution.BROADCAST, why + ", but the probe side is not stored by " + key
                    + ", so a shuffle would move every probe row; that pays from "
                    + config.joinMovingShuffleMinBuildRows() + " build rows");
        }
        return shuffle(boundaries, key, strategy == Strategy.COLOCATE || strategy == Strategy.AUTO && colocatable, why);
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
                + " cluster emits each build row where its table was probed: partitioned");
    }

    /**
     * Why copies of the build side to every CN move fewer bytes than a shuffle of both sides, or
     * null when they move more (a join that cannot colocate, on more than one CN).
     */
    private static String acrossCns(final PlanNode.Join join, final PlanStats stats, final Topology topology) {
        final long c = topology.cnCount();
        final double probe = stats.bytes(join.probe());
        final double build = stats.bytes(join.build());
        final double copies = build * (c - 1);
        final double moving = (probe + build) * (c - 1) / c;
        return copies <= moving ? String.format(Locale.ROOT, "copies of the build side move ~%s across %d CNs, a shuffle"
                + " of both sides ~%s", mib(copies), c, mib(moving)) : null;
    }

    /** A shuffle by the key: on ranges when the boundaries allow (colocated if {@code colocate}), else by hash. */
    private static LocalShuffle shuffle(final RangeBoundaries boundaries, final String key, final boolean colocate,
                                        final String why) {
        if (boundaries == null) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, why + "; probe key " + key + " has no zonemaps");
        }
        if (!boundaries.isRange()) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, why + "; no ranges on " + key + ": "
                    + boundaries.explanation());
        }
        return new LocalShuffle(colocate ? Distribution.COLOCATE : Distribution.SHUFFLE_RANGE, boundaries, key,
                why + "; " + boundaries.method() + " on " + key);
    }

    private static String mib(final double bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
    }

    /** The name of a key column. */
    static String name(final Expr key) {
        return ((ColumnRef) key).name();
    }
}
