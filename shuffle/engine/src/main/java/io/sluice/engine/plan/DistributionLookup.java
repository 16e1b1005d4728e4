package io.sluice.engine.plan;

/**
 * Where the distribution of a join, group-by, window, nested-loop join or assertion is looked up: decided
 * there and then while the {@link PhysicalPlanner} plans ({@link Distributions}), read from the
 * {@link DecidedPlan} everywhere else.
 */
interface DistributionLookup {
    /** The distribution of a join, group-by, window, nested-loop join or assert-one-row node. */
    LocalShuffle decisionOf(PlanNode node);

    /** Whether the query runs on a cluster. */
    boolean distributed();
}
