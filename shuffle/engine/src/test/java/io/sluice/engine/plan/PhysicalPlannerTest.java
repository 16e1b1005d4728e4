package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.wire.WireFormatException;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The physical planner decides each operator once, and its decisions travel with the plan to the CNs. */
class PhysicalPlannerTest {
    private static final Topology CLUSTER = new Topology(3, 2);

    private static final ZonemapOnlyTable PROBE = new ZonemapOnlyTable("p", 200, true);
    private static final ZonemapOnlyTable BUILD = new ZonemapOnlyTable("b", 100, true);
    private static final Catalog CATALOG = Map.<String, BlockTable>of("p", PROBE, "b", BUILD)::get;
    private static final StrategyConfig COLOCATE = StrategyConfig.defaults().withStrategy(Strategy.COLOCATE);

    /** A join of p to b on their keys, grouped by the probe key. */
    private static Plan joinThenGroup() {
        return Plan.scan("p", "kp", "p_v").join(JoinType.INNER, Plan.scan("b", "kb", "b_v"), List.of("kp"),
                List.of("kb")).aggregate(List.of(NamedExpr.column("kp")));
    }

    @Test
    void everyJoinAndGroupByCarriesItsDecision() {
        final DecidedPlan decided = PhysicalPlanner.plan(joinThenGroup(), COLOCATE, CATALOG, CLUSTER, true);
        final PlanNode.Aggregation group = (PlanNode.Aggregation) decided.root();
        final PlanNode.Join join = (PlanNode.Join) group.input();
        assertThat(decided.decisionOf(join).choice()).isEqualTo(Distribution.COLOCATE);
        assertThat(decided.decisionOf(join).boundaries().bucketCount()).isEqualTo(CLUSTER.bucketCount());
        assertThat(decided.decisionOf(join).rangeKey()).isEqualTo("kp");
        assertThat(decided.decisionOf(group).choice()).isEqualTo(Distribution.REUSE_SHUFFLE);
        assertThat(decided.delivered(group)).isNotNull();
    }

    @Test
    void theDecisionsTravelWithThePlan() {
        final DecidedPlan decided = PhysicalPlanner.plan(joinThenGroup(), COLOCATE, CATALOG, CLUSTER, true);
        final DecidedPlan shipped = PlanCodec.decodeDecided(PlanCodec.encodeDecided(decided));
        assertThat(shipped.root()).isEqualTo(decided.root());
        assertThat(shipped.topology()).isEqualTo(CLUSTER);
        assertThat(shipped.distributed()).isTrue();
        final List<PlanNode> sent = PlanWalk.preOrder(decided.root());
        final List<PlanNode> received = PlanWalk.preOrder(shipped.root());
        for (int i = 0; i < sent.size(); i++) {
            if (!PhysicalPlanner.needsDecision(sent.get(i))) {
                continue;
            }
            final LocalShuffle a = decided.decisionOf(sent.get(i));
            final LocalShuffle b = shipped.decisionOf(received.get(i));
            assertThat(b.choice()).isEqualTo(a.choice());
            assertThat(b.rangeKey()).isEqualTo(a.rangeKey());
            assertThat(b.kept()).isEqualTo(a.kept());
            assertThat(b.colocatedScan()).isEqualTo(a.colocatedScan());
            assertThat(b.boundaries() == null).isEqualTo(a.boundaries() == null);
            if (a.boundaries() != null) {
                assertThat(b.boundaries().method()).isEqualTo(a.boundaries().method());
                assertThat(b.boundaries().cutPoints()).containsExactly(a.boundaries().cutPoints());
            }
        }
        assertThat(shipped.localExchanges()).hasSameSizeAs(decided.localExchanges());
        assertThat(shipped.runtimeFilters()).hasSameSizeAs(decided.runtimeFilters());
    }

    @Test
    void aComputeNodeRefusesAPlanNobodyDecided() {
        final byte[] undecided = PlanCodec.encode(joinThenGroup(), COLOCATE);
        assertThatThrownBy(() -> PlanCodec.decodeDecided(undecided))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("carries no decisions")
                .hasMessageContaining("send the query through the coordinator");
    }

    @Test
    void aPlanDecidedForAnotherTopologyIsNotCompiled() {
        final DecidedPlan decided = PhysicalPlanner.plan(joinThenGroup(), COLOCATE, CATALOG, new Topology(1, 4), false);
        assertThatThrownBy(() -> new PipelineCompiler(CATALOG, COLOCATE, 2).compile(decided))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PhysicalPlanner.plan");
    }
}
