package io.sluice.engine.plan;

import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides how each ORDER BY of a plan is distributed and records it on the node
 * ({@link PlanNode.OrderBy#withDistribution}), where the compiler reads it. In one process the
 * workers sort together ({@link SortDistribution#LOCAL_SORT}). In a cluster each core sorts its own
 * rows and the coordinator merges the sorted runs ({@link SortDistribution#MERGE_SORT}), unless
 * {@link StrategyConfig#mergeSort()} is off or the cluster has a single core in all: one producer
 * makes one run, and sorting its rows once on the coordinator is all there is to do
 * ({@link SortDistribution#GATHER_SORT}). A decision already on a node (a plan decided before it
 * was shipped) is kept where it fits: in a cluster when it is not local, in one process when it is. Where the rows already are all on the coordinator (after a merge group),
 * the compiler sorts them there whatever was decided: there is nothing to gather.
 */
final class DetermineSortDistribution {
    private DetermineSortDistribution() {
    }

    /** The plan with a decision on every ORDER BY node. */
    static PlanNode apply(final PlanNode node, final StrategyConfig config, final Topology topology,
                          final boolean distributed) {
        if (node instanceof PlanNode.Scan) {
            return node;
        }
        if (node instanceof PlanNode.Filter f) {
            final PlanNode in = apply(f.input(), config, topology, distributed);
            return in == f.input() ? f : new PlanNode.Filter(in, f.predicate());
        }
        if (node instanceof PlanNode.Project p) {
            final PlanNode in = apply(p.input(), config, topology, distributed);
            return in == p.input() ? p : new PlanNode.Project(in, p.items());
        }
        if (node instanceof PlanNode.Aggregation a) {
            final PlanNode in = apply(a.input(), config, topology, distributed);
            return in == a.input() ? a : new PlanNode.Aggregation(in, a.keys(), a.aggregates());
        }
        if (node instanceof PlanNode.Join j) {
            final PlanNode probe = apply(j.probe(), config, topology, distributed);
            final PlanNode build = apply(j.build(), config, topology, distributed);
            return probe == j.probe() && build == j.build() ? j
                    : new PlanNode.Join(probe, build, j.type(), j.probeKeys(), j.buildKeys(), j.condition());
        }
        if (node instanceof PlanNode.OrderBy o) {
            final PlanNode in = apply(o.input(), config, topology, distributed);
            final boolean kept = o.distribution() != null
                    && (o.distribution() == SortDistribution.LOCAL_SORT) == !distributed;
            final SortDistribution d = kept ? o.distribution() : decide(config, topology, distributed);
            return in == o.input() && d == o.distribution() ? o
                    : new PlanNode.OrderBy(in, o.keys(), o.limit(), d);
        }
        if (node instanceof PlanNode.UnionAll u) {
            final List<PlanNode> inputs = new ArrayList<>();
            boolean same = true;
            for (final PlanNode input : u.inputs()) {
                final PlanNode decided = apply(input, config, topology, distributed);
                inputs.add(decided);
                same &= decided == input;
            }
            return same ? u : new PlanNode.UnionAll(inputs);
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            final PlanNode probe = apply(j.probe(), config, topology, distributed);
            final PlanNode build = apply(j.build(), config, topology, distributed);
            return probe == j.probe() && build == j.build() ? j
                    : new PlanNode.NestedLoopJoin(probe, build, j.type(), j.condition());
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            final PlanNode in = apply(a.input(), config, topology, distributed);
            return in == a.input() ? a : new PlanNode.AssertOneRow(in, a.keys(), a.where());
        }
        if (node instanceof PlanNode.Window w) {
            final PlanNode in = apply(w.input(), config, topology, distributed);
            return in == w.input() ? w : new PlanNode.Window(in, w.partitionBy(), w.orderBy(), w.functions());
        }
        final PlanNode.Limit l = (PlanNode.Limit) node;
        final PlanNode in = apply(l.input(), config, topology, distributed);
        return in == l.input() ? l : new PlanNode.Limit(in, l.limit());
    }

    /** The distribution of one ORDER BY on a topology. */
    static SortDistribution decide(final StrategyConfig config, final Topology topology, final boolean distributed) {
        if (!distributed) {
            return SortDistribution.LOCAL_SORT;
        }
        if (!config.mergeSort() || topology.bucketCount() == 1) {
            return SortDistribution.GATHER_SORT;
        }
        return SortDistribution.MERGE_SORT;
    }
}
