package io.sluice.engine.plan;

import io.sluice.shuffle.Topology;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Each join's distribution in one query, decided once by {@link DetermineJoinDistribution} the
 * first time a rule or the compiler asks, and the same answer for every later question (the join
 * itself, the partitioning it delivers to the operators above it, its runtime filter in
 * {@link DetermineRuntimeFilters}).
 */
final class JoinDistributions {
    private final StrategyConfig config;
    private final PlanStats stats;
    private final Topology topology;
    private final Map<PlanNode.Join, LocalShuffle> decided = new IdentityHashMap<>();

    JoinDistributions(final StrategyConfig config, final PlanStats stats, final Topology topology) {
        this.config = config;
        this.stats = stats;
        this.topology = topology;
    }

    /** How a join is distributed. */
    LocalShuffle of(final PlanNode.Join join) {
        return decided.computeIfAbsent(join, j -> DetermineJoinDistribution.decide(j, config, stats, topology));
    }
}
