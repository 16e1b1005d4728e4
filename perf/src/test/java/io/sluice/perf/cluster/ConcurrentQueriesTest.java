package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.dispatch.cluster.QueryFailedException;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.MemberState;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.cli.SluiceCommand;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several clients on three CN processes at once: eight clients' mixes of queries and strategies all
 * answer as DuckDB does (the coordinator runs four at a time and queues the rest), and each CN's
 * memory stays bounded; a client process killed mid-query has its query cancelled on every CN while
 * the others go on; a query past its timeout, a cancelled one and one whose {@code sluice query} was
 * stopped by SIGTERM while it waited release everything; and a CN stalled by SIGSTOP fails the query
 * it was in, naming it, while the queries on the other CNs answer, then rejoins after SIGCONT.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConcurrentQueriesTest {
    private static final int CLIENTS = 8;
    private static final String[] MIX = {"q1", "q3", "q4", "q6", "q18", "join_lo", "grp_orderkey", "q10"};
    private static final Strategy[] STRATEGIES = {Strategy.AUTO, Strategy.SHUFFLE_HASH, Strategy.COLOCATE,
        Strategy.BROADCAST, Strategy.SHUFFLE_RANGE, Strategy.HYBRID};
    /** The heap of each CN: its resident memory stays well under a gigabyte whatever runs at once. */
    private static final long RSS_BOUND = 1L << 30;

    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static ProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopback(dir, 0.01, 3, 1, "-Xmx256m");
        oracle = fixture.oracle();
        cluster = fixture.cluster();
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** Client {@code c}'s queries, checked against DuckDB. */
    private static void runMix(final Session session, final int c, final int count) throws Exception {
        for (int i = 0; i < count; i++) {
            final Query q = TpchOracle.query(MIX[(c + i) % MIX.length]);
            final Strategy strategy = STRATEGIES[(c * 3 + i) % STRATEGIES.length];
            oracle.assertSameAsDuckDb(q, session.execute(q.name(), q.plan(), StrategyConfig.defaults()
                    .withStrategy(strategy), 120_000).result());
        }
    }

    private static List<MemberStatus> awaitIdle(final String what) {
        return cluster.awaitMembers(members -> members.stream().allMatch(m -> m.activeQueries() == 0)
                && cluster.session().clusterStatus().runningQueries() == 0, what);
    }

    @Test
    @Order(1)
    void eightClientsAtOnceAllGetDuckDbsAnswersWithBoundedMemory() throws Exception {
        final int perClient = 6;
        try (Session session = cluster.connect()) {
            // Warm: every CN process has compiled the queries before either timing starts.
            runMix(session, 0, MIX.length * 2);
        }
        final long sequentialStart = System.nanoTime();
        try (Session session = cluster.connect()) {
            for (int c = 0; c < CLIENTS; c++) {
                runMix(session, c, perClient);
            }
        }
        final double sequentialSeconds = (System.nanoTime() - sequentialStart) / 1e9;
        final ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        final long concurrentStart = System.nanoTime();
        try {
            final List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                final int client = c;
                clients.add(pool.submit(() -> {
                    try (Session session = cluster.connect()) {
                        runMix(session, client, perClient);
                    }
                    return null;
                }));
            }
            for (final Future<?> f : clients) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        final double concurrentSeconds = (System.nanoTime() - concurrentStart) / 1e9;
        final List<MemberStatus> members = cluster.session().status();
        System.out.printf(Locale.ROOT, "ConcurrentQueriesTest: %d queries by %d clients at once in %.1f s (%.0f/min),"
                        + " by one client in %.1f s (%.0f/min); peak RSS %s%n", CLIENTS * perClient, CLIENTS,
                concurrentSeconds, CLIENTS * perClient * 60 / concurrentSeconds, sequentialSeconds,
                CLIENTS * perClient * 60 / sequentialSeconds,
                members.stream().map(m -> m.name() + " " + (m.rssBytes() >> 20) + " MiB").toList());
        assertThat(members).hasSize(3).allSatisfy(m -> assertThat(m.rssBytes()).isBetween(1L, RSS_BOUND));
        awaitIdle("every query to end");
    }

    @Test
    @Order(2)
    void aKilledClientsQueryIsCancelledOnEveryCnAndTheOthersGoOn() throws Exception {
        try (JavaProcess endless = JavaProcess.of(EndlessQuery.class).jvmArgs("-Xmx128m")
                .args(cluster.endpoint().toString()).start()) {
            endless.awaitLine(EndlessQuery.RUNNING::equals, ProcessCluster.START);
            cluster.awaitMembers(members -> members.stream().allMatch(m -> m.activeQueries() == 1),
                    "every CN to run the endless query");
            // Other clients' queries run beside it and answer.
            try (Session session = cluster.connect()) {
                runMix(session, 0, 3);
            }
            endless.signal("KILL");
            endless.awaitExit(Duration.ofSeconds(30));
            final List<MemberStatus> idle = awaitIdle("the killed client's query to be cancelled on every CN");
            assertThat(idle).hasSize(3).allMatch(m -> m.state() == MemberState.ALIVE);
            cluster.coordinator().awaitLine(line -> line.contains("endless") && line.contains("its client went away"),
                    Duration.ofSeconds(30));
        }
        try (Session session = cluster.connect()) {
            runMix(session, 1, 2);
        }
    }

    @Test
    @Order(3)
    void aTimedOutACancelledAndAStoppedWaitingQueryReleaseEverything() throws Exception {
        final Session session = cluster.session();
        session.shape(0, 0);
        assertThatThrownBy(() -> session.execute("endless", EndlessQuery.plan(), EndlessQuery.config(), 1_500))
                .isInstanceOf(QueryFailedException.class).hasMessageContaining("timeout of 1500 ms")
                .satisfies(e -> assertThat(((QueryFailedException) e).errorType()).isEqualTo("TimeoutException"));
        awaitIdle("the timed-out query to stop on every CN");

        // Four endless queries fill the coordinator's places: a fifth, from sluice query, waits in line.
        final List<CompletableFuture<Session.Execution>> running = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            running.add(CompletableFuture.supplyAsync(() -> session.execute("endless", EndlessQuery.plan(),
                    EndlessQuery.config())));
        }
        cluster.awaitMembers(members -> cluster.session().clusterStatus().runningQueries() == 4, "four queries running");
        try (JavaProcess query = JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx128m")
                .args("query", "--coordinator", cluster.endpoint().toString(), "--tpch", "6").start()) {
            cluster.awaitMembers(members -> cluster.session().clusterStatus().queuedQueries() == 1,
                    "sluice query to wait for a place");
            query.signal("TERM");
            cluster.coordinator().awaitLine(line -> line.contains("waiting for a place was cancelled by its client:"
                    + " interrupted (SIGINT or SIGTERM)"), Duration.ofSeconds(30));
            assertThat(query.awaitExit(Duration.ofSeconds(30))).isNotZero();
        }
        assertThat(cluster.session().clusterStatus().queuedQueries()).isZero();

        session.cancelAll("the test is done with them");
        for (final CompletableFuture<Session.Execution> r : running) {
            assertThatThrownBy(() -> r.get(60, TimeUnit.SECONDS)).hasCauseInstanceOf(QueryFailedException.class)
                    .hasMessageContaining("cancelled by its client: the test is done with them");
        }
        awaitIdle("the cancelled queries to stop on every CN");
    }

    @Test
    @Order(4)
    void aStalledCnFailsItsQueryWhileQueriesOnTheOthersAnswerAndRejoinsWhenContinued() throws Exception {
        final List<MemberStatus> members = cluster.session().status();
        // Queries on two CNs run on the first two members; the third is stalled.
        final String stalled = members.get(2).name();
        final Session session = cluster.session();
        session.shape(0, 0);
        final CompletableFuture<Session.Execution> onAll = CompletableFuture.supplyAsync(() -> session.execute("endless",
                EndlessQuery.plan(), EndlessQuery.config()));
        cluster.awaitMembers(m -> m.stream().allMatch(s -> s.activeQueries() == 1), "every CN to run the endless query");
        final AtomicReference<Throwable> twoCnFailure = new AtomicReference<>();
        final CompletableFuture<Integer> onTwo = CompletableFuture.supplyAsync(() -> {
            int answered = 0;
            try (Session two = cluster.connect()) {
                two.shape(2, 0);
                final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
                while (System.nanoTime() - until < 0) {
                    runMix(two, answered, 1);
                    answered++;
                }
            } catch (final Throwable t) {
                twoCnFailure.set(t);
            }
            return answered;
        });
        cluster.cn(stalled).signal("STOP");
        try {
            assertThatThrownBy(() -> onAll.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(QueryFailedException.class)
                    .hasMessageContaining("CN " + stalled).hasMessageContaining("died or stalled");
            assertThat(onTwo.get(2, TimeUnit.MINUTES)).as("queries on the other two CNs").isPositive();
            assertThat(twoCnFailure.get()).as("the queries on the other two CNs").isNull();
        } finally {
            cluster.cn(stalled).signal("CONT");
        }
        cluster.awaitAlive(3);
        try (Session all = cluster.connect()) {
            runMix(all, 2, 2);
        }
    }
}
