package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.MemberState;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.perf.tpch.Query;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Busy is not dead: CN processes on a machine whose cores are taken by CPU hogs, collecting often in
 * small heaps, keep their membership through a loop of shuffle queries, and every answer is DuckDB's.
 * (A fixed 3 s silence once took a working CN for dead in such a run.)
 */
class BusyClusterTest {
    /** Busy loops: twice as many as the machine has cores, each its own process. */
    private static final int HOGS = 2 * Runtime.getRuntime().availableProcessors();

    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static ProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        // 128 MiB heaps: the SF 0.1 joins and group-bys make the CNs collect many times a query.
        fixture = OracleCluster.onLoopback(dir, 0.1, 3, 1, "-Xmx128m");
        oracle = fixture.oracle();
        cluster = fixture.cluster();
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void cnsUnderACpuHogAndAllocationPressureKeepTheirMembershipThroughALoopOfQueries() throws Exception {
        cluster.awaitAlive(3);
        final List<Process> hogs = new ArrayList<>();
        try {
            for (int i = 0; i < HOGS; i++) {
                hogs.add(hog());
            }
            final Session session = cluster.session();
            session.shape(0, 1);
            for (int round = 0; round < 4; round++) {
                for (final String name : List.of("q18", "q9", "q3")) {
                    final Query query = TpchOracle.query(name);
                    final Session.Execution execution = session.execute(name, query.plan(),
                            StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH));
                    oracle.assertSameAsDuckDb(query, execution.result());
                    assertThat(execution.stats().topology().cnCount()).as("%s in round %d", name, round).isEqualTo(3);
                }
            }
            final List<MemberStatus> members = session.status();
            assertThat(members).hasSize(3).allMatch(m -> m.state() != MemberState.DEAD);
        } finally {
            for (final Process hog : hogs) {
                hog.destroyForcibly();
            }
            for (final Process hog : hogs) {
                hog.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** A process that spins a core until killed. */
    private static Process hog() throws IOException {
        return new ProcessBuilder("sh", "-c", "while :; do :; done").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }
}
