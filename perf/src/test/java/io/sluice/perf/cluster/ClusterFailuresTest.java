package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.QueryFailedException;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.MemberState;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures of real CN and coordinator processes at SF 0.1: a CN killed with SIGKILL or stopped with
 * SIGSTOP while a query runs fails that query within 10 s with an error naming it, the next query runs
 * on the survivors and is right, a CN started later (or continued) joins and the next query uses it,
 * and CNs rejoin a coordinator that restarted on the same port.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFailuresTest {
    /** The bound: from the failure to the query's error. */
    private static final long FAIL_WITHIN_MS = 10_000;

    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static ProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopback(dir, 0.1, 3, 2, "-Xmx512m");
        oracle = fixture.oracle();
        cluster = fixture.cluster();
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** Starts the endless query and waits until every CN runs it. */
    private static CompletableFuture<Session.Execution> startEndless(final int cns) {
        final Session session = cluster.session();
        session.shape(0, 2);
        final CompletableFuture<Session.Execution> running = CompletableFuture.supplyAsync(() -> session.execute(
                "endless", EndlessQuery.plan(), EndlessQuery.config()));
        final List<MemberStatus> members = cluster.awaitMembers(m -> running.isDone() || m.size() == cns
                && m.stream().allMatch(s -> s.activeQueries() == 1), "every CN to run the endless query");
        assertThat(running).as("the endless query still runs on %s", members).isNotDone();
        return running;
    }

    /** The failure the query ended with, and how long after {@code sinceNs} it came. */
    private static QueryFailedException failureOf(final CompletableFuture<Session.Execution> running, final long sinceNs)
            throws InterruptedException, TimeoutException {
        try {
            running.get(60, TimeUnit.SECONDS);
            throw new AssertionError("the endless query succeeded");
        } catch (final ExecutionException e) {
            final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNs);
            System.out.println("ClusterFailuresTest: the query failed " + ms + " ms after the failure: "
                    + e.getCause().getMessage());
            assertThat(ms).as("ms from the failure to the query's error: %s", e.getCause().getMessage())
                    .isLessThanOrEqualTo(FAIL_WITHIN_MS);
            assertThat(e.getCause()).isInstanceOf(QueryFailedException.class);
            return (QueryFailedException) e.getCause();
        }
    }

    /** Runs a real query on every CN alive, checks it against DuckDB and returns how many CNs it ran on. */
    private static int checkedQueryOnEveryCn(final String name) throws Exception {
        final Query query = TpchOracle.query(name);
        final Session session = cluster.session();
        session.shape(0, 2);
        final Session.Execution execution = session.execute(name, query.plan(),
                StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH));
        oracle.assertSameAsDuckDb(query, execution.result());
        return execution.stats().topology().cnCount();
    }

    @Test
    @Order(1)
    void aCnKilledMidQueryFailsItNamingTheCnTheSurvivorsAnswerTheNextAndANewCnIsUsedOnceItJoins() throws Exception {
        final CompletableFuture<Session.Execution> running = startEndless(3);
        final long killedNs = System.nanoTime();
        cluster.cn("cn1").destroyForcibly();
        final QueryFailedException failure = failureOf(running, killedNs);
        // Told by the dead process's host (its doorbell port is closed), not by the long silence.
        assertThat(failure.getMessage()).contains("cn1").contains("died or stalled").contains("process is gone");
        cluster.forget("cn1");

        cluster.awaitAlive(2);
        assertThat(checkedQueryOnEveryCn("q3")).as("CNs of the next query").isEqualTo(2);

        final long startedNs = System.nanoTime();
        cluster.addCn("cn3").awaitLine(line -> line.contains(" joined: CN "), ProcessCluster.START);
        cluster.awaitAlive(3);
        System.out.println("ClusterFailuresTest: a new CN process joined "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNs) + " ms after it was started");
        assertThat(checkedQueryOnEveryCn("q18")).as("CNs once cn3 joined").isEqualTo(3);
    }

    @Test
    @Order(2)
    void aStoppedCnIsDeclaredDeadTheSurvivorsAnswerTheNextQueryAndItRejoinsWhenContinued() throws Exception {
        final CompletableFuture<Session.Execution> running = startEndless(3);
        final long stoppedNs = System.nanoTime();
        cluster.cn("cn0").signal("STOP");
        try {
            final QueryFailedException failure = failureOf(running, stoppedNs);
            assertThat(failure.getMessage()).contains("cn0").contains("no heartbeat");
            cluster.awaitAlive(2);
            assertThat(checkedQueryOnEveryCn("q5")).as("CNs while cn0 is stopped").isEqualTo(2);
        } finally {
            cluster.cn("cn0").signal("CONT");
        }
        cluster.awaitMembers(m -> m.size() == 3 && m.stream().allMatch(s -> s.state() == MemberState.ALIVE
                && s.activeQueries() == 0), "cn0 to rejoin, every CN idle");
        assertThat(checkedQueryOnEveryCn("q10")).as("CNs once cn0 continued").isEqualTo(3);
    }

    @Test
    @Order(3)
    void theCnsRejoinACoordinatorThatRestartedOnTheSamePort() throws Exception {
        final int port = cluster.endpoint().port();
        cluster.coordinator().destroyForcibly();
        cluster.coordinator().awaitExit(Duration.ofSeconds(30));
        final long restartedNs = System.nanoTime();
        cluster.startCoordinator(port);
        cluster.awaitAlive(3);
        System.out.println("ClusterFailuresTest: every CN rejoined "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedNs) + " ms after the coordinator was"
                + " started again");
        assertThat(checkedQueryOnEveryCn("q4")).as("CNs after the coordinator restarted").isEqualTo(3);
    }
}
