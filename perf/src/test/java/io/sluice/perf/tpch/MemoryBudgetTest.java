package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.exec.MemoryLimitException;
import io.sluice.engine.exec.MemoryPool;
import io.sluice.engine.exec.MemoryProperty;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query over its memory budget ({@code sluice.memory.query.max}) with spilling off ({@code sluice.spill=off})
 * fails naming the operator that passed it and the setting, on one process and on an embedded cluster, and the next query runs: every byte the
 * failed query took is back in the pool. Within budget, the answers are DuckDB's.
 */
class MemoryBudgetTest {
    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static SqlPlanner planner;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        planner = new SqlPlanner(oracle.catalog(), oracle.store().tableNames());
    }

    @AfterAll
    static void close() throws Exception {
        if (oracle != null) {
            oracle.close();
        }
    }

    /** With spilling off, as these tests run, past the budget is an error; SpillTpchTest runs them spilling. */
    @org.junit.jupiter.api.BeforeEach
    void spillingOff() {
        System.setProperty(MemoryProperty.SPILL.key(), "off");
    }

    @AfterEach
    void clearBudget() {
        System.clearProperty(MemoryProperty.QUERY_MAX.key());
        System.clearProperty(MemoryProperty.SPILL.key());
    }

    @Test
    void aQueryOverItsBudgetFailsNamingTheOperatorAndTheNextOneRuns() throws Exception {
        final String q18 = TpchSql.text(18);
        final long before = MemoryPool.shared().reserved();
        try (QueryRunner runner = new QueryRunner(oracle.catalog(), 2, StrategyConfig.defaults())) {
            // Q18 groups lineitem's 60 000 rows by l_orderkey: 15 000 groups of about 40 bytes.
            System.setProperty(MemoryProperty.QUERY_MAX.key(), "100k");
            assertThatThrownBy(() -> runner.run(planner.plan(q18).plan())).isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("memory budget of 100.0 KiB")
                    .hasMessageContaining("group by [l_orderkey]")
                    .hasMessageContaining("-Dsluice.memory.query.max=SIZE (now 100k");
            assertThat(MemoryPool.shared().reserved()).isEqualTo(before);
            System.setProperty(MemoryProperty.QUERY_MAX.key(), "64m");
            oracle.assertSameAsDuckDb("q18", q18, runner.run(planner.plan(q18).plan()));
        }
        assertThat(MemoryPool.shared().reserved()).isEqualTo(before);
    }

    @Test
    void onAClusterTheCnThatPassesItsBudgetFailsTheQueryAndTheClusterGoesOn() throws Exception {
        final String q3 = TpchSql.text(3);
        try (Session session = new Session(oracle.store(), new Topology(3, 2))) {
            System.setProperty(MemoryProperty.QUERY_MAX.key(), "10k");
            assertThatThrownBy(() -> session.execute("q3", planner.plan(q3).plan(),
                    StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH)))
                    .hasMessageContaining("memory budget of 10.0 KiB on this CN")
                    .hasMessageMatching("(?s).*failed on CN cn\\d.*(hash join build|group by) \\[[a-z_, ]+\\] holds .*");
            System.clearProperty(MemoryProperty.QUERY_MAX.key());
            oracle.assertSameAsDuckDb("q3", q3, session.execute("q3", planner.plan(q3).plan(),
                    StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH)).result());
        }
    }
}
