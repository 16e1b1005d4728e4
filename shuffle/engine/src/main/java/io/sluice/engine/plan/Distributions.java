package io.sluice.engine.plan;

import io.sluice.shuffle.Topology;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Each join's and group-by's distribution in one query, decided once the first time a rule or the
 * compiler asks, and the same answer for every later question (the operator itself, the partitioning it
 * delivers to the operators above it, its runtime filter in {@link DetermineRuntimeFilters}); and the
 * partitioning each node delivers, which those decisions read. A join is decided by
 * {@link DetermineJoinDistribution}, then {@link DeterminePartitionReuse} with what its sides deliver, then
 * {@link DetermineHeavyKeys}; a
 * group-by by {@link DetermineGroupStrategy} with what its input delivers, then {@link DetermineHeavyKeys}.
 */
final class Distributions implements DistributionLookup {
    private final StrategyConfig config;
    private final PlanStats stats;
    private final Topology topology;
    private final boolean distributed;
    private final Map<PlanNode.Join, LocalShuffle> joins = new IdentityHashMap<>();
    private final Map<PlanNode.Aggregation, LocalShuffle> groups = new IdentityHashMap<>();
    private final Map<PlanNode, LocalShuffle> keyed = new IdentityHashMap<>();

    /** @param distributed whether the query runs on a cluster (where a hybrid join's probe stays on its CN) */
    Distributions(final StrategyConfig config, final PlanStats stats, final Topology topology,
                  final boolean distributed) {
        this.config = config;
        this.stats = stats;
        this.topology = topology;
        this.distributed = distributed;
    }

    /** How a join is distributed. */
    LocalShuffle of(final PlanNode.Join join) {
        final LocalShuffle known = joins.get(join);
        if (known != null) {
            return known;
        }
        final LocalShuffle decidedAlone = DetermineJoinDistribution.decide(join, config, stats, topology);
        final LocalShuffle planned = distributed && join.type().buildColumnsOnly()
                ? DetermineJoinDistribution.partitionedOnCluster(join, decidedAlone, stats, topology) : decidedAlone;
        final LocalShuffle decided = DetermineHeavyKeys.decide(join, DeterminePartitionReuse.decide(join, planned,
                delivered(join.probe()), delivered(join.build()), config, stats), config, stats, topology);
        joins.put(join, decided);
        return decided;
    }

    /** How a group-by is distributed. */
    LocalShuffle of(final PlanNode.Aggregation agg) {
        final LocalShuffle known = groups.get(agg);
        if (known != null) {
            return known;
        }
        final LocalShuffle decided = DetermineHeavyKeys.decideGroup(agg, DetermineGroupStrategy.decide(agg,
                slots(delivered(agg.input())), config, stats, topology), config, stats, topology);
        groups.put(agg, decided);
        return decided;
    }

    /** How a nested-loop join is distributed ({@link DetermineNestedLoopDistribution}). */
    LocalShuffle of(final PlanNode.NestedLoopJoin j) {
        return keyed.computeIfAbsent(j, n -> DetermineNestedLoopDistribution.decide(j, distributed
                && onCoordinator(j.probe()), distributed && onCoordinator(j.build()), topology.cnCount(), config,
                stats));
    }

    /**
     * Whether a node's rows are all on the coordinator on a cluster (a SINGLE fragment): after a merge
     * group-by, an ORDER BY, a LIMIT, a window or assertion without keys, through filters, projections,
     * the probe side of broadcast and nested-loop joins, and unions of such inputs only.
     */
    boolean onCoordinator(final PlanNode node) {
        if (node instanceof PlanNode.Filter f) {
            return onCoordinator(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return onCoordinator(p.input());
        }
        if (node instanceof PlanNode.Aggregation a) {
            return of(a).choice() == Distribution.MERGE;
        }
        if (node instanceof PlanNode.Join j) {
            return of(j).choice() == Distribution.BROADCAST && onCoordinator(j.probe());
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            return of(j).choice() != Distribution.ROUND_ROBIN && onCoordinator(j.probe());
        }
        if (node instanceof PlanNode.Window w) {
            return of(w).choice() == Distribution.GATHER;
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return of(a).choice() == Distribution.GATHER;
        }
        if (node instanceof PlanNode.UnionAll u) {
            return u.inputs().stream().allMatch(this::onCoordinator);
        }
        return node instanceof PlanNode.OrderBy || node instanceof PlanNode.Limit;
    }

    /** Where a window's partitions meet ({@link DeterminePartitionDistribution}). */
    LocalShuffle of(final PlanNode.Window w) {
        return keyed.computeIfAbsent(w, n -> DeterminePartitionDistribution.decide(w.partitionBy(),
                slots(delivered(w.input())), "no PARTITION BY: all rows are one partition"));
    }

    /** Where a scalar subquery's rows (per key) meet to be counted ({@link DeterminePartitionDistribution}). */
    LocalShuffle of(final PlanNode.AssertOneRow a) {
        return keyed.computeIfAbsent(a, n -> DeterminePartitionDistribution.decide(a.keys(),
                slots(delivered(a.input())), "at most one row in all: checked where all rows meet"));
    }

    private static List<Set<String>> slots(final Partitioning p) {
        return p == null ? null : p.slots();
    }

    /**
     * The shuffle a node's output rows come bucketed by without a new exchange, or null
     * ({@link DeliveredPartitioning}).
     */
    Partitioning delivered(final PlanNode node) {
        return DeliveredPartitioning.of(node, this);
    }

    @Override
    public LocalShuffle decisionOf(final PlanNode node) {
        if (node instanceof PlanNode.Join j) {
            return of(j);
        }
        if (node instanceof PlanNode.Aggregation a) {
            return of(a);
        }
        if (node instanceof PlanNode.Window w) {
            return of(w);
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return of(a);
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            return of(j);
        }
        throw new IllegalArgumentException("a " + node.getClass().getSimpleName() + " node has no distribution to decide");
    }

    @Override
    public boolean distributed() {
        return distributed;
    }
}
