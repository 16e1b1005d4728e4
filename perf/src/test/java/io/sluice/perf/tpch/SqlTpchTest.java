package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.exec.RuntimeFilterState;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Distribution;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import io.sluice.sql.PlannedQuery;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TPC-H from its SQL text: each supported query, planned by {@link SqlPlanner} and run under
 * every strategy on one CN's worker threads and on embedded clusters of 1x1, 3x2 and 7x2, returns what
 * DuckDB returns for the same text over the same SF 0.01 rows (column names included); so does AUTO
 * with thresholds low enough that the bytes each join would move across CNs decide it.
 */
class SqlTpchTest {
    /** Every query; at SF 0.01 no part qualifies for Q17, whose SUM(...) / 7.0 is then NULL. */
    static final List<Integer> SUPPORTED = IntStream.rangeClosed(1, TpchSql.COUNT).boxed().toList();
    private static final List<String> TOPOLOGIES = List.of("1x1", "3x2", "7x2");

    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static SqlPlanner planner;
    private static Session session;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        planner = new SqlPlanner(oracle.catalog(), oracle.store().tableNames());
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

    static Stream<Arguments> queriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (final int q : SUPPORTED) {
            for (final Strategy strategy : Strategy.values()) {
                cases.add(Arguments.of(q, strategy));
            }
        }
        return cases.stream();
    }

    static Stream<Arguments> topologiesQueriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String topology : TOPOLOGIES) {
            queriesAndStrategies().forEach(a -> cases.add(Arguments.of(topology, a.get()[0], a.get()[1])));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "q{0} {1} on 3 cores")
    @MethodSource("queriesAndStrategies")
    void onOneCnTheSameAsDuckDb(final int q, final Strategy strategy) throws Exception {
        final String sql = TpchSql.text(q);
        final PlannedQuery planned = planner.plan(sql);
        try (QueryRunner runner = new QueryRunner(oracle.catalog(), 3, StrategyConfig.defaults().withStrategy(strategy))) {
            oracle.assertSameAsDuckDb("q" + q, sql, runner.run(planned.plan()));
        }
    }

    @ParameterizedTest(name = "q{1} {2} on {0}")
    @MethodSource("topologiesQueriesAndStrategies")
    void onAClusterTheSameAsDuckDb(final String topology, final int q, final Strategy strategy) throws Exception {
        session.topology(Topology.parse(topology));
        final String sql = TpchSql.text(q);
        final Session.Execution execution = session.execute("q" + q, planner.plan(sql).plan(),
                StrategyConfig.defaults().withStrategy(strategy));
        oracle.assertSameAsDuckDb("q" + q, sql, execution.result());
        if (Topology.parse(topology).cnCount() == 1) {
            assertThat(execution.stats().rowsRemote()).as("rows crossing CNs on one CN").isZero();
        }
    }

    static Stream<Integer> supported() {
        return SUPPORTED.stream();
    }

    /** AUTO with thresholds of 1000 rows: each join goes the way that moves the fewest bytes across CNs. */
    private static Session.Execution autoByBytes(final int q) throws Exception {
        session.topology(new Topology(3, 2));
        final String sql = TpchSql.text(q);
        final Session.Execution execution = session.execute("q" + q, planner.plan(sql).plan(),
                StrategyConfig.defaults().withStrategy(Strategy.AUTO).withThresholds(1_000, 1_000));
        oracle.assertSameAsDuckDb("q" + q, sql, execution.result());
        return execution;
    }

    @ParameterizedTest(name = "q{0} auto by bytes on 3x2")
    @MethodSource("supported")
    void autoDecidingJoinsByTheBytesTheyMoveTheSameAsDuckDb(final int q) throws Exception {
        autoByBytes(q);
    }

    @Test
    void autoGoesHybridWhereCopiesOfALargeBuildSideMoveTheFewestBytes() throws Exception {
        // Q9 joins lineitem with orders, partsupp and part on keys lineitem is not stored by.
        assertThat(autoByBytes(9).decisions()).extracting(Decision::choice).contains(Distribution.HYBRID);
    }

    @Test
    void aRuntimeFilterReachesTheScanBelowADecorrelatedSubquerysGroupBy() throws Exception {
        // Q17's subquery becomes avg(l_quantity) grouped by l_partkey over all of lineitem, joined to the few parts
        // of one brand and container: the parts' keys filter that lineitem scan before it is grouped.
        final String sql = TpchSql.text(17);
        try (QueryRunner runner = new QueryRunner(oracle.catalog(), 2, StrategyConfig.defaults()
                .withStrategy(Strategy.BROADCAST).withRuntimeFilters(RuntimeFilterMode.LOCAL))) {
            final QueryRunner.Execution execution = runner.execute(planner.plan(sql).plan());
            oracle.assertSameAsDuckDb("q17", sql, execution.result());
            assertThat(execution.runtimeFilters()).hasSize(2);
            assertThat(execution.runtimeFilterStats()).hasSize(2).allSatisfy(s -> {
                assertThat(s.state()).as("%s", s).isEqualTo(RuntimeFilterState.APPLIED);
                // At SF 0.01 no part qualifies: the empty filter skips every block of both scans unread.
                assertThat(s.blocksSkipped()).as("%s", s).isEqualTo(oracle.catalog().table("lineitem").blockCount());
            });
        }
    }
}
