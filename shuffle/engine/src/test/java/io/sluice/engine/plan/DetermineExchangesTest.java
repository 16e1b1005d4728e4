package io.sluice.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.MaterializedSource;
import io.sluice.engine.exec.ResultCollector;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.wire.WireFormatException;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.DispatchMode;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The physical planner places each exchange between pipelines on an edge of the decided plan, with an id by edge;
 * the compiler takes each exchange's id from the plan and refuses a plan whose exchanges do not fit its tree.
 */
class DetermineExchangesTest {
    private static final Topology CLUSTER = new Topology(3, 2);
    private static final Topology ONE_PROCESS = new Topology(1, 2);

    private static final ZonemapOnlyTable PROBE = new ZonemapOnlyTable("p", 200, true);
    private static final ZonemapOnlyTable BUILD = new ZonemapOnlyTable("b", 100, true);
    private static final ZonemapOnlyTable SMALL = new ZonemapOnlyTable("s", 2, false);
    private static final Catalog CATALOG = Map.<String, BlockTable>of("p", PROBE, "b", BUILD, "s", SMALL)::get;

    private static StrategyConfig strategy(final Strategy s) {
        return StrategyConfig.defaults().withStrategy(s);
    }

    private static Plan join() {
        return Plan.scan("p", "kp", "p_v").join(JoinType.INNER, Plan.scan("b", "kb", "b_v"), List.of("kp"),
                List.of("kb"));
    }

    private static DecidedExchange gatherOfResult(final int id) {
        return new DecidedExchange(id, 0, DecidedExchange.RESULT, DispatchMode.GATHER, FragmentType.SINGLE, List.of(),
                null);
    }

    @Test
    void aHashShuffleJoinOnAClusterShufflesBothSidesByTheirKeysAndGathersTheResult() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.SHUFFLE_HASH), CATALOG, CLUSTER,
                true);
        assertThat(decided.exchanges()).containsExactly(
                gatherOfResult(0),
                new DecidedExchange(1, 0, 0, DispatchMode.TO_OWNER, FragmentType.HASH, List.of("kp"), null),
                new DecidedExchange(2, 0, 1, DispatchMode.TO_OWNER, FragmentType.HASH, List.of("kb"), null));
    }

    @Test
    void aRangeShuffleCarriesTheJoinsBoundaries() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.SHUFFLE_RANGE), CATALOG, CLUSTER,
                true);
        final PlanNode.Join j = (PlanNode.Join) decided.root();
        assertThat(decided.exchanges()).hasSize(3);
        for (final DecidedExchange e : decided.exchanges().subList(1, 3)) {
            assertThat(e.mode()).isEqualTo(DispatchMode.TO_OWNER);
            assertThat(e.fragment()).isEqualTo(FragmentType.RANGE);
            assertThat(e.boundaries()).isSameAs(decided.decisionOf(j).boundaries());
        }
        assertThat(decided.exchanges().get(1).keys()).containsExactly("kp");
        assertThat(decided.exchanges().get(2).keys()).containsExactly("kb");
    }

    @Test
    void aColocatedJoinGroupedByItsKeyMovesOnlyTheResult() {
        final Plan grouped = join().aggregate(List.of(NamedExpr.column("kp")));
        final DecidedPlan decided = PhysicalPlanner.plan(grouped, strategy(Strategy.COLOCATE), CATALOG, CLUSTER, true);
        assertThat(decided.exchanges()).containsExactly(gatherOfResult(0));
    }

    @Test
    void aBroadcastJoinBroadcastsItsBuildSide() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.BROADCAST), CATALOG, CLUSTER, true);
        assertThat(decided.exchanges()).containsExactly(
                gatherOfResult(0),
                new DecidedExchange(1, 0, 1, DispatchMode.BROADCAST, FragmentType.BROADCAST, List.of(), null));
    }

    @Test
    void aMergeGroupGathersItsInputIntoTheGroupByAndTheResultNeedsNoMore() {
        final Plan grouped = Plan.scan("p", "kp", "p_v").aggregate(List.of(NamedExpr.column("p_v")));
        final DecidedPlan decided = PhysicalPlanner.plan(grouped, strategy(Strategy.BROADCAST), CATALOG, CLUSTER, true);
        assertThat(decided.decisionOf(decided.root()).choice()).isEqualTo(Distribution.MERGE);
        assertThat(decided.exchanges()).containsExactly(
                new DecidedExchange(0, 0, 0, DispatchMode.GATHER, FragmentType.SINGLE, List.of(), null));
    }

    @Test
    void probeRowsGatheredByALimitSpreadRoundRobinForANestedLoopJoinWithABroadcastBuildSide() {
        final Plan plan = Plan.scan("p", "kp").limit(10).nestedLoopJoin(JoinType.INNER, Plan.scan("s", "ks"), null);
        final DecidedPlan decided = PhysicalPlanner.plan(plan, StrategyConfig.defaults(), CATALOG, CLUSTER, true);
        assertThat(decided.decisionOf(decided.root()).choice()).isEqualTo(Distribution.ROUND_ROBIN);
        // Nodes in pre-order: 0 the nested-loop join, 1 the limit, 2 and 3 the scans.
        assertThat(decided.exchanges()).containsExactly(
                gatherOfResult(0),
                new DecidedExchange(1, 0, 0, DispatchMode.ANY, FragmentType.ROUND_ROBIN, List.of(), null),
                new DecidedExchange(2, 0, 1, DispatchMode.BROADCAST, FragmentType.BROADCAST, List.of(), null),
                new DecidedExchange(3, 1, 0, DispatchMode.GATHER, FragmentType.SINGLE, List.of(), null));
        final NotedExchanges noted = new NotedExchanges();
        new PipelineCompiler(CATALOG, decided.config(), CLUSTER, 2, noted).compile(decided);
        assertThat(noted.ids).containsExactly(3, 1, 2, 0);
    }

    @Test
    void inOneProcessOnlyTheShufflesBetweenCoresRemain() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.SHUFFLE_HASH), CATALOG, ONE_PROCESS,
                false);
        assertThat(decided.exchanges()).containsExactly(
                new DecidedExchange(0, 0, 0, DispatchMode.TO_OWNER, FragmentType.HASH, List.of("kp"), null),
                new DecidedExchange(1, 0, 1, DispatchMode.TO_OWNER, FragmentType.HASH, List.of("kb"), null));
    }

    @Test
    void theExchangesTravelWithThePlan() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.SHUFFLE_RANGE), CATALOG, CLUSTER,
                true);
        final DecidedPlan shipped = PlanCodec.decodeDecided(PlanCodec.encodeDecided(decided));
        assertThat(shipped.exchanges()).hasSameSizeAs(decided.exchanges());
        for (int i = 0; i < decided.exchanges().size(); i++) {
            final DecidedExchange sent = decided.exchanges().get(i);
            final DecidedExchange received = shipped.exchanges().get(i);
            assertThat(received.id()).isEqualTo(sent.id());
            assertThat(received.position()).isEqualTo(sent.position());
            assertThat(received.input()).isEqualTo(sent.input());
            assertThat(received.mode()).isEqualTo(sent.mode());
            assertThat(received.fragment()).isEqualTo(sent.fragment());
            assertThat(received.keys()).isEqualTo(sent.keys());
            assertThat(received.boundaries() == null).isEqualTo(sent.boundaries() == null);
            if (sent.boundaries() != null) {
                assertThat(received.boundaries().cutPoints()).containsExactly(sent.boundaries().cutPoints());
            }
        }
    }

    @Test
    void aComputeNodeTakesEachExchangesIdFromThePlanNotFromTheOrderItCompilesThem() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.SHUFFLE_HASH), CATALOG, CLUSTER,
                true);
        final NotedExchanges noted = new NotedExchanges();
        new PipelineCompiler(CATALOG, decided.config(), CLUSTER, 1, noted).compile(decided);
        // The build side is compiled first and the result last, the reverse of the ids' edge order.
        assertThat(noted.ids).containsExactly(2, 1, 0);
        assertThat(noted.modes).containsExactly(DispatchMode.TO_OWNER, DispatchMode.TO_OWNER, DispatchMode.GATHER);
    }

    @Test
    void aPlanMissingAnExchangeIsNotCompiled() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.SHUFFLE_HASH), CATALOG, CLUSTER,
                true);
        final DecidedPlan forged = withExchanges(decided, List.of(decided.exchanges().get(0),
                renumbered(decided.exchanges().get(1), 1)));
        assertThatThrownBy(() -> new PipelineCompiler(CATALOG, decided.config(), CLUSTER, 0, new NotedExchanges())
                .compile(forged))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the plan decided no exchange into input 1 of a Join node, where its rows need a"
                        + " TO_OWNER")
                .hasMessageContaining("decide it with PhysicalPlanner.plan");
    }

    @Test
    void aPlanWhoseExchangeHasAnotherModeIsNotCompiled() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.BROADCAST), CATALOG, CLUSTER, true);
        final DecidedPlan forged = withExchanges(decided, List.of(decided.exchanges().get(0),
                new DecidedExchange(1, 0, 1, DispatchMode.GATHER, FragmentType.SINGLE, List.of(), null)));
        assertThatThrownBy(() -> new PipelineCompiler(CATALOG, decided.config(), CLUSTER, 0, new NotedExchanges())
                .compile(forged))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the plan decided exchange 1 (GATHER) into input 1 of node 0")
                .hasMessageContaining("need a BROADCAST into a BROADCAST fragment");
    }

    @Test
    void aPlanWithAnExchangeNoPipelineEndsInIsNotCompiled() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.COLOCATE), CATALOG, CLUSTER, true);
        assertThat(decided.exchanges()).containsExactly(gatherOfResult(0));
        final DecidedPlan forged = withExchanges(decided, List.of(gatherOfResult(0),
                new DecidedExchange(1, 0, 1, DispatchMode.BROADCAST, FragmentType.BROADCAST, List.of(), null)));
        assertThatThrownBy(() -> new PipelineCompiler(CATALOG, decided.config(), CLUSTER, 0, new NotedExchanges())
                .compile(forged))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the plan decided exchange 1 (BROADCAST) into input 1 of node 0, but no pipeline"
                        + " of it ends there");
    }

    @Test
    void aShippedExchangeIntoAnInputItsNodeLacksIsRefusedByField() {
        final DecidedPlan decided = PhysicalPlanner.plan(join(), strategy(Strategy.BROADCAST), CATALOG, CLUSTER, true);
        final byte[] bytes = PlanCodec.encodeDecided(decided);
        // The last exchange, the broadcast, ends in: input (int), mode, fragment (bytes), no keys (int), no boundaries.
        final int inputAt = bytes.length - 1 - 4 - 1 - 1 - 4;
        assertThat(new UnsafeBuffer(bytes).getInt(inputAt, ByteOrder.LITTLE_ENDIAN)).isEqualTo(1);
        new UnsafeBuffer(bytes).putInt(inputAt, 2, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> PlanCodec.decodeDecided(bytes))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("exchanges[1].input")
                .hasMessageContaining("input 2 of a Join node with 2 inputs");
    }

    @Test
    void anExchangeThatShufflesWithoutKeysIsNoExchange() {
        assertThatThrownBy(() -> new DecidedExchange(0, 0, 0, DispatchMode.TO_OWNER, FragmentType.HASH, List.of(),
                null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a shuffle has keys");
        assertThatThrownBy(() -> new DecidedExchange(0, 2, DecidedExchange.RESULT, DispatchMode.GATHER,
                FragmentType.SINGLE, List.of(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the result is gathered above the root, node 0");
    }

    private static DecidedExchange renumbered(final DecidedExchange e, final int id) {
        return new DecidedExchange(id, e.position(), e.input(), e.mode(), e.fragment(), e.keys(), e.boundaries());
    }

    /** The decided plan with other exchanges, as a forged or corrupted plan would carry. */
    private static DecidedPlan withExchanges(final DecidedPlan decided, final List<DecidedExchange> exchanges) {
        final Map<PlanNode, LocalShuffle> decisions = new IdentityHashMap<>();
        for (final PlanNode n : PlanWalk.preOrder(decided.root())) {
            if (decided.decided(n)) {
                decisions.put(n, decided.decisionOf(n));
            }
        }
        return new DecidedPlan(decided.root(), decided.config(), decided.topology(), decided.distributed(), decisions,
                decided.runtimeFilters(), decided.localExchanges(), exchanges);
    }

    /** A cluster's exchanges that note which the compiler asked for, in order, and move nothing. */
    private static final class NotedExchanges implements ExchangeFactory {
        final List<Integer> ids = new ArrayList<>();
        final List<DispatchMode> modes = new ArrayList<>();

        @Override
        public boolean distributed() {
            return true;
        }

        @Override
        public Ends exchange(final DecidedExchange exchange, final RowType rowType, final int[] keyColumns,
                             final BucketFunction function) {
            ids.add(exchange.id());
            modes.add(exchange.mode());
            return new Ends(new ResultCollector(rowType), new MaterializedSource(rowType, List::of, false), true);
        }
    }
}
