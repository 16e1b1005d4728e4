package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TPC-H from its SQL text: each supported query, planned by {@link SqlPlanner} and run under
 * every strategy on one CN's worker threads and on embedded clusters of 1x1 and 3x2, returns what
 * DuckDB returns for the same text over the same SF 0.01 rows (column names included).
 */
class SqlTpchTest {
    /** Every query; at SF 0.01 no part qualifies for Q17, whose SUM(...) / 7.0 is then NULL. */
    static final List<Integer> SUPPORTED = IntStream.rangeClosed(1, TpchSql.COUNT).boxed().toList();
    private static final List<String> TOPOLOGIES = List.of("1x1", "3x2");

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
}
