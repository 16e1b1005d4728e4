package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.MemberState;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CN processes whose queries may hold 20 KiB each ({@code -Dsluice.memory.query.max=20k}) and may not spill
 * ({@code -Dsluice.spill=off}): a shuffle join fails with the error naming the CN, the operator and the setting,
 * no CN dies, and the next query that fits runs on both, with DuckDB's answer.
 */
class MemoryBudgetOnProcessesTest {
    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static SqlPlanner planner;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopback(dir, 0.01, 2, 1, "-Dsluice.memory.query.max=20k", "-Dsluice.spill=off");
        planner = new SqlPlanner(fixture.oracle().catalog(), fixture.oracle().store().tableNames());
        fixture.cluster().awaitAlive(2);
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void aQueryOverBudgetFailsNamingTheOperatorAndTheCnsServeTheNextOne() throws Exception {
        final Session session = fixture.cluster().session();
        final String q3 = TpchSql.text(3);
        assertThatThrownBy(() -> session.execute("q3", planner.plan(q3).plan(),
                StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH)))
                .hasMessageContaining("memory budget of 20.0 KiB on this CN")
                .hasMessageContaining("-Dsluice.memory.query.max=SIZE (now 20k");
        final String small = "select o_orderstatus, count(*) as n from orders group by o_orderstatus order by o_orderstatus";
        fixture.oracle().assertSameAsDuckDb("small", small, session.execute("small", planner.plan(small).plan(),
                StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH)).result());
        assertThat(session.status()).hasSize(2).allMatch(m -> m.state() == MemberState.ALIVE);
    }
}
