package io.sluice.engine.plan;

import io.sluice.engine.exec.HashAggregate;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Decides whether a group-by is a merge group (per-core partial tables merged at the end) or a
 * shuffle group (rows shuffled by a group key, each core aggregating whole buckets, no merge;
 * seed 003). A group-by whose input already went through a shuffle on one of its keys (a shuffle
 * join on that key) reuses it. Under {@link Strategy#AUTO} a key estimated to have fewer than
 * {@link StrategyConfig#groupShuffleMinDistinct()} distinct values (or without an estimate: no
 * integer or date key with zonemaps) merges; more shuffle, by range
 * when a key's zonemaps allow it (colocated when the input is a scan in key order), by hash otherwise.
 * On a cluster a COUNT DISTINCT, whose partial states cannot be merged, is hash-shuffled whatever its
 * estimate: a merge group would gather every input row to the coordinator.
 */
final class DetermineGroupStrategy {
    private DetermineGroupStrategy() {
    }

    /**
     * @param partitioning the shuffle the input went through, as slots of equal columns (null: none)
     */
    static LocalShuffle decide(final PlanNode.Aggregation agg, final List<Set<String>> partitioning,
                               final StrategyConfig config, final PlanStats stats, final Topology topology) {
        if (agg.keys().isEmpty()) {
            return LocalShuffle.of(Distribution.MERGE, DistributionReason.NO_GROUP_KEYS, "no group keys");
        }
        final List<String> columns = new ArrayList<>();
        for (final NamedExpr k : agg.keys()) {
            if (k.expr() instanceof ColumnRef r) {
                columns.add(r.name());
            }
        }
        if (columns.isEmpty()) {
            return LocalShuffle.of(Distribution.MERGE, DistributionReason.KEYS_ARE_EXPRESSIONS, "group keys are expressions, a shuffle needs columns");
        }
        final Strategy strategy = config.strategy();
        if (strategy == Strategy.BROADCAST) {
            return LocalShuffle.of(Distribution.MERGE, DistributionReason.FORCED, "forced");
        }
        if (covers(partitioning, columns)) {
            return LocalShuffle.of(Distribution.REUSE_SHUFFLE, DistributionReason.INPUT_ALREADY_SHUFFLED, "input already shuffled by " + partitioning);
        }
        if (strategy == Strategy.SHUFFLE_HASH) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, DistributionReason.FORCED, "forced");
        }
        if ((strategy == Strategy.AUTO || strategy == Strategy.HYBRID) && topology.cnCount() > 1
                && !HashAggregate.splittable(agg.aggregates())) {
            return LocalShuffle.of(Distribution.SHUFFLE_HASH, DistributionReason.COUNT_DISTINCT, "a COUNT DISTINCT has no partial state to merge across"
                    + " CNs: a hash shuffle on the keys gives each bucket whole groups instead of gathering every row"
                    + " to the coordinator (seed 000's distinct streaming agg)");
        }
        final String why;
        DistributionReason code = DistributionReason.FORCED;
        long[] numbers = new long[0];
        if (strategy == Strategy.AUTO || strategy == Strategy.HYBRID) {
            double distinct = -1;
            for (final String c : columns) {
                distinct = Math.max(distinct, stats.distinct(agg.input(), c));
            }
            if (distinct < 0) {
                return LocalShuffle.of(Distribution.MERGE, DistributionReason.NO_DISTINCT_ESTIMATE, "no distinct estimate for keys " + columns
                        + " (computed or strings), merge is the safe default");
            }
            if (distinct < config.groupShuffleMinDistinct()) {
                return LocalShuffle.of(Distribution.MERGE, DistributionReason.FEW_DISTINCT_KEYS,
                        String.format(java.util.Locale.ROOT, "~%.0f distinct keys < %d", distinct,
                                config.groupShuffleMinDistinct()), Math.round(distinct), config.groupShuffleMinDistinct());
            }
            why = String.format(java.util.Locale.ROOT, "~%.0f distinct keys >= %d", distinct,
                    config.groupShuffleMinDistinct());
            code = DistributionReason.MANY_DISTINCT_KEYS;
            numbers = new long[] {Math.round(distinct), config.groupShuffleMinDistinct()};
        } else {
            why = "forced";
        }
        String noRange = "no group key has zonemaps";
        for (final String c : columns) {
            final RangeBoundaries b = stats.boundaries(agg.input(), c, topology);
            if (b != null && b.isRange()) {
                final boolean sorted = stats.scanSortedBy(agg.input(), c);
                if (strategy == Strategy.COLOCATE && !sorted) {
                    return LocalShuffle.of(Distribution.MERGE, DistributionReason.INPUT_NOT_STORED_BY_KEY, "colocate: the input is not stored by " + c
                            + ", so partial groups are merged instead of moving rows");
                }
                final boolean colocate = strategy != Strategy.SHUFFLE_RANGE && sorted;
                return new LocalShuffle(colocate ? Distribution.COLOCATE : Distribution.SHUFFLE_RANGE, b, c,
                        why + "; " + b.method() + " on " + c, code, numbers);
            }
            if (b != null) {
                noRange = "no ranges on " + c + ": " + b.explanation();
            }
        }
        if (strategy == Strategy.COLOCATE) {
            // Colocation keeps rows where they are read: without ranges to colocate by, only partial groups move.
            return LocalShuffle.of(Distribution.MERGE, DistributionReason.INPUT_NOT_STORED_BY_KEY,
                    "colocate: the input is not stored by a group key with ranges (" + noRange
                            + "), so partial groups are merged instead of moving rows");
        }
        return LocalShuffle.of(Distribution.SHUFFLE_HASH, code, why + "; " + noRange, numbers);
    }

    /** Whether every slot of the partitioning has a column among the group keys. */
    private static boolean covers(final List<Set<String>> partitioning, final List<String> columns) {
        if (partitioning == null) {
            return false;
        }
        for (final Set<String> slot : partitioning) {
            boolean hit = false;
            for (final String c : columns) {
                hit |= slot.contains(c);
            }
            if (!hit) {
                return false;
            }
        }
        return true;
    }
}
