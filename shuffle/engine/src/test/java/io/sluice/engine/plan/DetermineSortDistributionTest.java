package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.SortKey;
import io.sluice.shuffle.Topology;
import org.junit.jupiter.api.Test;

/** Where an ORDER BY runs: decided once, recorded on its node, kept when already decided. */
class DetermineSortDistributionTest {
    private static final StrategyConfig MERGE = StrategyConfig.defaults().withMergeSort(true);

    private static SortDistribution decided(final Plan plan, final StrategyConfig config, final Topology topology,
                                            final boolean distributed) {
        PlanNode node = DetermineSortDistribution.apply(plan.node(), config, topology, distributed);
        while (!(node instanceof PlanNode.OrderBy)) {
            node = ((PlanNode.Project) node).input();
        }
        return ((PlanNode.OrderBy) node).distribution();
    }

    private static final Plan SORTED = Plan.scan("lineitem", "l_orderkey").orderBy(SortKey.desc("l_orderkey"))
            .select("l_orderkey");

    @Test
    void oneProcessSortsLocallyAClusterMergesSortedRuns() {
        assertThat(decided(SORTED, MERGE, new Topology(1, 4), false)).isEqualTo(SortDistribution.LOCAL_SORT);
        assertThat(decided(SORTED, MERGE, new Topology(3, 2), true)).isEqualTo(SortDistribution.MERGE_SORT);
        assertThat(decided(SORTED, MERGE, new Topology(1, 2), true)).isEqualTo(SortDistribution.MERGE_SORT);
    }

    @Test
    void oneCoreInAllOrTheSwitchOffGathersAndSorts() {
        assertThat(decided(SORTED, MERGE, new Topology(1, 1), true)).isEqualTo(SortDistribution.GATHER_SORT);
        assertThat(decided(SORTED, MERGE.withMergeSort(false), new Topology(3, 2), true))
                .isEqualTo(SortDistribution.GATHER_SORT);
    }

    @Test
    void aDecisionOnTheNodeIsKeptWhereItFits() {
        final PlanNode.OrderBy o = (PlanNode.OrderBy) ((PlanNode.Project) SORTED.node()).input();
        final Plan gather = Plan.of(o.withDistribution(SortDistribution.GATHER_SORT));
        assertThat(decided(gather, MERGE, new Topology(3, 2), true)).isEqualTo(SortDistribution.GATHER_SORT);
        assertThat(decided(gather, MERGE, new Topology(1, 2), false)).isEqualTo(SortDistribution.LOCAL_SORT);
        final Plan local = Plan.of(o.withDistribution(SortDistribution.LOCAL_SORT));
        assertThat(decided(local, MERGE, new Topology(3, 2), true)).isEqualTo(SortDistribution.MERGE_SORT);
    }

    @Test
    void nodesWithoutAnOrderByStayTheSame() {
        final Plan plan = Plan.scan("orders", "o_orderkey").limit(3);
        assertThat(DetermineSortDistribution.apply(plan.node(), MERGE, new Topology(3, 2), true))
                .isSameAs(plan.node());
    }
}
