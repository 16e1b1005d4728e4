package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Between CN processes over UDP, with a cluster secret: blocks sent as stored are tagged and verified
 * like every frame (a frame that failed verification would never arrive, and the query would miss its
 * rows), their count reaches the coordinator's stats, and the answers equal DuckDB's.
 */
class StoredBlocksOnProcessesTest {
    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static ProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopbackWithSecret(dir, 0.01, 2, 2, "-Xmx384m");
        oracle = fixture.oracle();
        cluster = fixture.cluster();
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    @ParameterizedTest(name = "{0} under {1} on 2 signed CN processes")
    @CsvSource({"join_lo, SHUFFLE_RANGE", "join_lp, BROADCAST"})
    void signedStoredBlocksCrossProcessesAndTheAnswerEqualsDuckDb(final String name, final Strategy strategy)
            throws Exception {
        final Query query = TpchOracle.query(name);
        final Session session = cluster.session();
        session.shape(2, 2);
        final Session.Execution run = session.execute(query.name(), query.plan(),
                StrategyConfig.defaults().withStrategy(strategy));
        oracle.assertSameAsDuckDb(query, run.result());
        assertThat(run.stats().blocksSentStored()).as("blocks sent as stored between processes").isPositive();
        assertThat(run.stats().bytesSentStored()).isPositive().isLessThanOrEqualTo(run.stats().bytesRemote());
    }
}
