package io.sluice.engine.plan;

import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs every distribution rule once for a query and a topology and returns the {@link DecidedPlan}: the
 * only place a {@code Determine*} rule runs (a layering test says so). The order is fixed: sort distribution
 * ({@link DetermineSortDistribution}); then, bottom-up, each join ({@link DetermineJoinDistribution},
 * {@link DeterminePartitionReuse}), group-by ({@link DetermineGroupStrategy}), window and assertion
 * ({@link DeterminePartitionDistribution}) and nested-loop join ({@link DetermineNestedLoopDistribution});
 * runtime filters ({@link DetermineRuntimeFilters}); local exchanges ({@link DetermineLocalExchanges}); the
 * exchanges between pipelines, with their ids ({@link DetermineExchanges}). Boundaries come with the join and
 * group-by decisions. On a cluster the coordinator runs it and ships the
 * result; in one process {@link QueryRunner} runs it in place.
 */
public final class PhysicalPlanner {
    private PhysicalPlanner() {
    }

    /**
     * Decides a plan.
     *
     * @param tables      the tables' zonemap statistics
     * @param distributed whether it runs on a cluster of CNs (rather than in one process)
     */
    public static DecidedPlan plan(final Plan plan, final StrategyConfig config, final Catalog tables,
                                   final Topology topology, final boolean distributed) {
        final PlanStats stats = new PlanStats(tables);
        final Distributions distributions = new Distributions(config, stats, topology, distributed);
        final PlanNode root = DetermineSortDistribution.apply(plan.node(), config, topology, distributed);
        final Map<PlanNode, LocalShuffle> decisions = new IdentityHashMap<>();
        for (final PlanNode n : PlanWalk.postOrder(root)) {
            if (needsDecision(n)) {
                decisions.put(n, distributions.decisionOf(n));
            }
        }
        final List<RuntimeFilterTarget> filters = DetermineRuntimeFilters.decide(root, config, distributions, stats);
        final List<LocalExchange> local = DetermineLocalExchanges.decide(root, distributions, distributed);
        final List<DecidedExchange> exchanges = DetermineExchanges.decide(root, distributions, filters);
        return new DecidedPlan(root, config, topology, distributed, decisions, filters, local, exchanges);
    }

    /** Whether a node's operator is distributed by a decision of its own. */
    static boolean needsDecision(final PlanNode n) {
        return n instanceof PlanNode.Join || n instanceof PlanNode.Aggregation || n instanceof PlanNode.Window
                || n instanceof PlanNode.NestedLoopJoin || n instanceof PlanNode.AssertOneRow;
    }
}
