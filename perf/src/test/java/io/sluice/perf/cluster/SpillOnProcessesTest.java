package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.MemberState;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.sql.SqlPlanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CN processes whose queries may hold 20 KiB each spill: hash-shuffled TPC-H joins whose builds do not fit
 * write them to disk on the CNs, answer as DuckDB does, report what they spilled through the coordinator, and
 * leave no spill file behind.
 */
class SpillOnProcessesTest {
    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static SqlPlanner planner;
    private static Path spill;

    @BeforeAll
    static void start() throws Exception {
        spill = dir.resolve("spill");
        fixture = OracleCluster.onLoopback(dir, 0.01, 2, 1, "-Dsluice.memory.query.max=20k",
                "-Dsluice.spill.dir=" + spill);
        planner = new SqlPlanner(fixture.oracle().catalog(), fixture.oracle().store().tableNames());
        fixture.cluster().awaitAlive(2);
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    @ParameterizedTest(name = "q{0}")
    @ValueSource(ints = {3, 10, 21})
    void joinsSpillOnTheCnsAndAnswerAsDuckDb(final int q) throws Exception {
        final Session session = fixture.cluster().session();
        final String sql = TpchSql.text(q);
        final Session.Execution run = session.execute("q" + q, planner.plan(sql).plan(),
                StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH));
        fixture.oracle().assertSameAsDuckDb("q" + q, sql, run.result());
        final long buildSpill = run.stats().memory().stream()
                .filter(m -> m.operator().startsWith("hash join build"))
                .mapToLong(QueryStats.OperatorMemory::spilledBytes).sum();
        assertThat(buildSpill).as("bytes the join builds of q%d spilled on the CNs", q).isPositive();
        assertThat(filesUnder(spill)).as("spill files left after q%d", q).isZero();
        assertThat(session.status()).hasSize(2).allMatch(m -> m.state() == MemberState.ALIVE);
    }

    private static long filesUnder(final Path root) throws IOException {
        if (!Files.exists(root)) {
            return 0;
        }
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile).count();
        }
    }
}
