package io.sluice.engine.plan;

import io.sluice.engine.filter.FilterScope;
import java.util.List;

/**
 * One runtime filter {@link DetermineRuntimeFilters} decided to make: which join's build makes it for which
 * scan, over which keys, in which scope, and the build's estimated rows that size its Bloom filter alike on
 * every CN.
 *
 * @param id        the filter's number in the query
 * @param keys      indexes of the join keys it covers
 * @param probe     the scan columns of those keys, in order
 * @param colocated whether the scan is the join's own colocated probe scan (one bucket per morsel)
 * @param how       the join's distribution
 * @param buildRows the planner's estimate of the build side's rows
 */
record RuntimeFilterTarget(int id, PlanNode.Join join, PlanNode.Scan scan, List<Integer> keys, List<String> probe,
                           FilterScope scope, boolean colocated, LocalShuffle how, long buildRows) {
    RuntimeFilterTarget {
        keys = List.copyOf(keys);
        probe = List.copyOf(probe);
    }

    /**
     * Whether a scan lies below a group-by of a node (its rows reach the node only aggregated), through
     * filters, projections and joins.
     */
    static boolean belowAggregation(final PlanNode node, final PlanNode.Scan scan) {
        return walk(node, scan, false);
    }

    private static boolean walk(final PlanNode node, final PlanNode.Scan scan, final boolean aggregated) {
        if (node == scan) {
            return aggregated;
        }
        if (node instanceof PlanNode.Aggregation a) {
            return walk(a.input(), scan, true);
        }
        if (node instanceof PlanNode.Filter f) {
            return walk(f.input(), scan, aggregated);
        }
        if (node instanceof PlanNode.Project p) {
            return walk(p.input(), scan, aggregated);
        }
        return node instanceof PlanNode.Join j && (walk(j.probe(), scan, aggregated) || walk(j.build(), scan, aggregated));
    }
}
