package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.dispatch.cluster.QueryFailedException;
import io.sluice.dispatch.cluster.ExplainText;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.RuntimeFilterState;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Distribution;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every registered query under every strategy on embedded clusters of several shapes, batches
 * crossing CNs through Aeron, returns what DuckDB returns over the same SF 0.01 rows, and on 3x2 with
 * runtime filters off, local and global alike; global filters are gathered from every CN by the
 * coordinator, reach every CN's probe scans, and the rows they remove never cross CNs. One session
 * runs them all, changing its topology between shapes.
 */
class DistributedTpchTest {
    private static final List<String> TOPOLOGIES = List.of("1x1", "1x2", "2x2", "3x2", "5x1", "7x2");

    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static Session session;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        session = new Session(oracle.store(), new Topology(1, 1));
    }

    @AfterAll
    static void close() throws Exception {
        if (session != null) {
            session.close();
        }
        if (oracle != null) {
            oracle.close();
        }
    }

    static Stream<Arguments> topologiesQueriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String topology : TOPOLOGIES) {
            for (final Query q : Queries.all()) {
                for (final Strategy strategy : Strategy.values()) {
                    cases.add(Arguments.of(topology, q.name(), strategy));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} {2} on {0}")
    @MethodSource("topologiesQueriesAndStrategies")
    void sameResultAsDuckDb(final String topology, final String name, final Strategy strategy) throws Exception {
        final Topology shape = Topology.parse(topology);
        session.topology(shape);
        final Query query = TpchOracle.query(name);
        final Session.Execution execution = session.execute(name, query.plan(),
                StrategyConfig.defaults().withStrategy(strategy), 0, ExplainText.RENDERED);
        oracle.assertSameAsDuckDb(query, execution.result());
        if (shape.cnCount() == 1) {
            assertThat(execution.stats().rowsRemote()).as("rows crossing CNs on one CN").isZero();
        }
        assertThat(execution.explain()).contains("Fragment", "[SINGLE]");
    }

    @Test
    void aGroupByOnTheJoinKeyReusesTheShuffleAcrossCns() throws Exception {
        session.topology(new Topology(3, 2));
        final Query q18 = TpchOracle.query("q18");
        final Session.Execution execution = session.execute("q18", q18.plan(),
                StrategyConfig.defaults().withStrategy(Strategy.AUTO).withThresholds(1_000, 1_000));
        oracle.assertSameAsDuckDb(q18, execution.result());
        assertThat(execution.decisions()).filteredOn(d -> d.operator().startsWith("group by [c_name"))
                .extracting(Decision::choice).containsExactly(Distribution.REUSE_SHUFFLE);
    }

    @Test
    void anEmptyBuildSideAnEmptyProbeSideAndEmptyBucketsLoseNothingAndHangNothing() throws Exception {
        session.topology(new Topology(3, 2));
        final Expr never = Expr.lt(col("o_orderkey"), Expr.lit(0));
        final Plan emptyBuild = Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey").filter(never),
                        List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("n"), Plan.sum(col("l_quantity"), "s"));
        final Plan emptyProbe = Plan.scan("orders", "o_orderkey", "o_custkey").filter(never)
                .join(JoinType.INNER, Plan.scan("customer", "c_custkey"), List.of("o_custkey"), List.of("c_custkey"))
                .aggregate(Plan.groupBy("o_custkey"), Plan.count("n"));
        final Plan oneBucket = Plan.scan("orders", "o_orderkey", "o_orderstatus")
                .filter(Expr.eq(col("o_orderkey"), Expr.lit(7)))
                .aggregate(Plan.groupBy("o_orderkey"), Plan.count("n"));
        for (final Strategy strategy : Strategy.values()) {
            assertThat(run(emptyBuild, "empty build", strategy).result().rows())
                    .as("empty build side under %s", strategy).containsExactly(java.util.Arrays.asList(0L, null));
            assertThat(run(emptyProbe, "empty probe", strategy).result().rowCount())
                    .as("filter removing everything under %s", strategy).isZero();
            assertThat(run(oneBucket, "one bucket", strategy).result().rows())
                    .as("one key, every other bucket empty, under %s", strategy).containsExactly(List.of(7L, 1L));
        }
    }

    @Test
    void aCnThatFailsFailsTheQueryWithItsCauseAndTheSessionRunsTheNextQuery() throws Exception {
        session.topology(new Topology(3, 2));
        // Only the order with the largest key overflows, so one CN fails and the others hear of it.
        final Plan overflowing = Plan.scan("orders", "o_orderkey", "o_totalprice")
                .project(new io.sluice.engine.expr.NamedExpr("k", Expr.mul(col("o_orderkey"),
                        Expr.lit(Long.MAX_VALUE / 59_000))))
                .aggregate(Plan.groupBy("k"), Plan.count("n"));
        for (final Strategy strategy : List.of(Strategy.BROADCAST, Strategy.SHUFFLE_HASH)) {
            assertThatThrownBy(() -> run(overflowing, "overflow", strategy))
                    .as("under %s", strategy).isInstanceOf(QueryFailedException.class)
                    .hasMessageContaining("failed on CN cn").hasMessageContaining("long overflow")
                    .satisfies(e -> assertThat(((QueryFailedException) e).errorType()).isEqualTo("ArithmeticException"));
        }
        final Query q6 = TpchOracle.query("q6");
        oracle.assertSameAsDuckDb(q6, run(q6.plan(), "q6", Strategy.AUTO).result());
    }

    @Test
    void theSameAnswersWithEveryCnOnItsOwnMediaDriverOverUdp() throws Exception {
        try (Session udp = new Session(oracle.store(), new Topology(3, 2), Session.Network.UDP)) {
            for (final String name : List.of("q3", "q18", "join_lo")) {
                final Query query = TpchOracle.query(name);
                for (final Strategy strategy : List.of(Strategy.SHUFFLE_HASH, Strategy.BROADCAST, Strategy.COLOCATE)) {
                    final Session.Execution execution = udp.execute(name, query.plan(),
                            StrategyConfig.defaults().withStrategy(strategy));
                    oracle.assertSameAsDuckDb(query, execution.result());
                    if (strategy == Strategy.SHUFFLE_HASH) {
                        assertThat(execution.stats().bytesRemote()).as("%s bytes over UDP", name).isPositive();
                    }
                }
            }
        }
    }

    @Test
    void oneSessionGivesTheSameAnswersWhileItsTopologyChanges() throws Exception {
        final Query query = TpchOracle.query("q3");
        final List<List<List<Object>>> answers = new ArrayList<>();
        for (final String shape : List.of("3x10", "5x10", "7x8", "1x2")) {
            session.topology(Topology.parse(shape));
            final Session.Execution execution = run(query.plan(), query.name(), Strategy.AUTO);
            assertThat(execution.stats().topology()).isEqualTo(Topology.parse(shape));
            answers.add(execution.result().rows());
        }
        oracle.assertSameAsDuckDb(query, run(query.plan(), query.name(), Strategy.COLOCATE).result());
        assertThat(answers).allSatisfy(a -> assertThat(a).isEqualTo(answers.get(0)));
    }

    /** Rows that crossed CNs in the query's shuffles and broadcasts, not in its gathers to the coordinator. */
    private static long shuffledRowsRemote(final Session.Execution e) {
        return e.stats().exchanges().stream().filter(x -> !x.mode().equals("GATHER"))
                .mapToLong(QueryStats.ExchangeStats::rowsRemote).sum();
    }

    @ParameterizedTest(name = "{0} {1} on 3x2, runtime filters off, local and global")
    @MethodSource("io.sluice.perf.tpch.TpchOracle#queriesAndStrategies")
    void everyRuntimeFilterModeGivesDuckDbsAnswerOnThreeCns(final String name, final Strategy strategy)
            throws Exception {
        session.topology(new Topology(3, 2));
        final Query query = TpchOracle.query(name);
        Session.Execution off = null;
        for (final RuntimeFilterMode mode : RuntimeFilterMode.values()) {
            final Session.Execution e = session.execute(name, query.plan(),
                    StrategyConfig.defaults().withStrategy(strategy).withRuntimeFilters(mode));
            oracle.assertSameAsDuckDb(query, e.result());
            final List<RuntimeFilterStats> filters = e.stats().runtimeFilters();
            if (mode == RuntimeFilterMode.OFF) {
                assertThat(filters).isEmpty();
                off = e;
                continue;
            }
            for (final RuntimeFilterStats s : filters) {
                assertThat(s.probeRowsOut()).as("%s", s).isLessThanOrEqualTo(s.probeRowsIn());
                assertThat(s.state()).as("%s under %s", s, mode).isIn(RuntimeFilterState.APPLIED,
                        RuntimeFilterState.LATE, RuntimeFilterState.DISABLED);
                if (mode == RuntimeFilterMode.LOCAL) {
                    assertThat(s.scope()).isNotEqualTo(FilterScope.GLOBAL);
                }
            }
            // Shuffled rows only: the rows a top-N gathers depend on how the scans' blocks fell to the cores.
            assertThat(shuffledRowsRemote(e)).as("%s rows shuffled across CNs with filters %s", name, mode)
                    .isLessThanOrEqualTo(shuffledRowsRemote(off));
        }
    }

    @Test
    void aHashShuffledJoinsGlobalFilterIsMergedFromEveryCnAndKeepsRowsFromCrossing() throws Exception {
        session.topology(new Topology(3, 2));
        final Query q5 = TpchOracle.query("q5");
        final StrategyConfig hash = StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH);
        final Session.Execution off = session.execute("q5", q5.plan(), hash.withRuntimeFilters(RuntimeFilterMode.OFF));
        final Session.Execution global = session.execute("q5", q5.plan(), hash);
        oracle.assertSameAsDuckDb(q5, global.result());
        final List<RuntimeFilterStats> filters = global.stats().runtimeFilters();
        assertThat(filters).filteredOn(s -> s.scope() == FilterScope.GLOBAL).isNotEmpty().allSatisfy(s -> {
            assertThat(s.state()).as("%s", s).isIn(RuntimeFilterState.APPLIED, RuntimeFilterState.LATE);
            assertThat(s.probeRowsOut()).as("%s", s).isLessThan(s.probeRowsIn());
        });
        final RuntimeFilterStats lineitem = filters.stream().filter(s -> s.probe().equals(List.of("l_suppkey")))
                .findFirst().orElseThrow();
        // Every probe row the filters removed would have been hashed to some CN, most of them to another one.
        assertThat(global.stats().rowsRemote()).isLessThan(off.stats().rowsRemote()
                - (lineitem.probeRowsIn() - lineitem.probeRowsOut()) / 2);
    }

    private static Session.Execution run(final Plan plan, final String name, final Strategy strategy) {
        return session.execute(name, plan, StrategyConfig.defaults().withStrategy(strategy));
    }
}
