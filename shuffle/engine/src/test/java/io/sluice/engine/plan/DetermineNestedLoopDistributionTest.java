package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.JoinType;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a nested-loop join computes its pairs: where the probe rows are (copies of the build side), or, when the
 * probe rows are all on the coordinator, on one CN with the build side gathered there, unless a small build side
 * spread over the CNs makes spreading the probe rows round-robin the cheaper way to share the work.
 */
class DetermineNestedLoopDistributionTest {
    private static final long MIN_BUILD = 50_000;
    private static final StrategyConfig AUTO = StrategyConfig.defaults().withStrategy(Strategy.AUTO)
            .withThresholds(MIN_BUILD, 1_000);

    private static LocalShuffle decide(final int buildBlocks, final boolean probeOnCoordinator,
                                       final boolean buildOnCoordinator, final int cns) {
        final ZonemapOnlyTable probe = new ZonemapOnlyTable("p", 10, false);
        final ZonemapOnlyTable build = new ZonemapOnlyTable("b", buildBlocks, false);
        final Catalog catalog = Map.<String, BlockTable>of("p", probe, "b", build)::get;
        final Plan plan = Plan.scan("p", "kp").nestedLoopJoin(JoinType.INNER, Plan.scan("b", "kb"), null);
        return DetermineNestedLoopDistribution.decide((PlanNode.NestedLoopJoin) plan.node(), probeOnCoordinator,
                buildOnCoordinator, cns, AUTO, new PlanStats(catalog));
    }

    @Test
    void probeRowsSpreadOverTheCnsKeepThemAndGetCopiesOfTheBuildSide() {
        for (final int cns : new int[] {1, 3}) {
            final LocalShuffle how = decide(2, false, false, cns);
            assertThat(how.choice()).isEqualTo(Distribution.BROADCAST);
            assertThat(how.code()).isEqualTo(DistributionReason.NO_EQUALITY_KEYS);
        }
    }

    @Test
    void probeRowsOnTheCoordinatorSpreadRoundRobinWhenTheBuildSideIsSmallAndOnTheCns() {
        final LocalShuffle how = decide(2, true, false, 3);
        assertThat(how.choice()).isEqualTo(Distribution.ROUND_ROBIN);
        assertThat(how.code()).isEqualTo(DistributionReason.PROBE_ON_COORDINATOR_SPREAD);
        assertThat(how.numbers()).containsExactly(2L * ZonemapOnlyTable.BLOCK_ROWS, MIN_BUILD);
    }

    @Test
    void aLargeBuildSideIsGatheredToTheProbeRowsOnTheCoordinator() {
        final int blocks = (int) (MIN_BUILD / ZonemapOnlyTable.BLOCK_ROWS) + 1;
        final LocalShuffle how = decide(blocks, true, false, 3);
        assertThat(how.choice()).isEqualTo(Distribution.GATHER);
        assertThat(how.code()).isEqualTo(DistributionReason.PROBE_ON_COORDINATOR);
        assertThat(how.numbers()).containsExactly((long) blocks * ZonemapOnlyTable.BLOCK_ROWS);
    }

    @Test
    void withBothSidesOnTheCoordinatorOrOneCnThereIsNothingToSpread() {
        assertThat(decide(2, true, true, 3).choice()).isEqualTo(Distribution.GATHER);
        assertThat(decide(2, true, false, 1).choice()).isEqualTo(Distribution.GATHER);
    }
}
