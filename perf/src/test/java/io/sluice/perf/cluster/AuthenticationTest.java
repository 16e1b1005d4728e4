package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.QueryFailedException;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlAuthentication;
import io.sluice.dispatch.control.ControlCodec;
import io.sluice.dispatch.control.ControlMessage.Status;
import io.sluice.dispatch.control.ControlMessage.StatusRequest;
import io.sluice.dispatch.control.ControlPublisher;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.cli.Cli;
import io.sluice.perf.cli.SluiceCommand;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.EmbeddedDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster of processes with a secret lets no one in without it: a CN with another secret or none
 * exits with {@code authentication failed} and never becomes a member, a client with another secret is
 * refused the same way, captured messages sent again are refused and counted, and through all of it the
 * cluster keeps answering as DuckDB does. Without a secret a coordinator refuses to listen off loopback.
 */
class AuthenticationTest {
    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static ProcessCluster cluster;
    private static Path secret;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopbackWithSecret(dir, 0.01, 2, 1, "-Xmx256m");
        oracle = fixture.oracle();
        cluster = fixture.cluster();
        secret = fixture.secretFile();
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    private static void assertClusterAnswers() throws Exception {
        final var q = TpchOracle.query("q3");
        oracle.assertSameAsDuckDb(q, cluster.session().execute(q.name(), q.plan(), StrategyConfig.defaults()).result());
        assertThat(cluster.session().status()).hasSize(2);
    }

    @Test
    void aCnWithAnotherSecretOrNoneExitsWithAuthenticationFailedAndNeverJoins() throws Exception {
        final Path other = ProcessCluster.writeSecret(dir.resolve("other.secret"));
        for (final List<String> secretArgs : List.of(List.of("--secret-file", other.toString()), List.<String>of())) {
            final List<String> args = new ArrayList<>(List.of("cn", "--coordinator", cluster.endpoint().toString(),
                    "--store", oracle.store().dir().toString(), "--cores", "1", "--name", "intruder", "--bind",
                    "127.0.0.1"));
            args.addAll(secretArgs);
            try (JavaProcess intruder = JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx128m")
                    .args(args.toArray(String[]::new)).start()) {
                assertThat(intruder.awaitExit(Duration.ofSeconds(60))).as("%s", intruder).isEqualTo(1);
                assertThat(String.join("\n", intruder.stderr())).as("%s", intruder).contains("authentication failed");
            }
            assertThat(cluster.session().status()).extracting(m -> m.name()).doesNotContain("intruder");
        }
        assertThat(cluster.session().clusterStatus().rejectedMessages()).isPositive();
        assertClusterAnswers();
    }

    @Test
    void aClientWithAnotherSecretIsRefused() throws Exception {
        final ClusterContext wrong = new ClusterContext().secret(ClusterSecret.read(
                ProcessCluster.writeSecret(dir.resolve("client.secret"))));
        try (Session stranger = Session.connect(cluster.endpoint(), Session.defaultTransport(), wrong)) {
            final var q = TpchOracle.query("q6");
            assertThatThrownBy(() -> stranger.execute(q.name(), q.plan(), StrategyConfig.defaults()))
                    .isInstanceOf(QueryFailedException.class).hasMessageContaining("authentication failed")
                    .satisfies(e -> assertThat(((QueryFailedException) e).errorType())
                            .isEqualTo("AuthenticationException"));
        }
        final Cli.Result status = Cli.run("cluster", "status", "--coordinator", cluster.endpoint().toString());
        assertThat(status.exitCode()).as("%s", status).isEqualTo(1);
        assertThat(status.err()).contains("authentication failed");
        assertClusterAnswers();
    }

    @Test
    void aCapturedMessageSentAgainIsRefusedAndCounted() throws Exception {
        final long coordinatorIncarnation = cluster.session().clusterStatus().coordinatorIncarnation();
        try (EmbeddedDriver driver = EmbeddedDriver.launch(Session.defaultTransport())) {
            // A genuine client's request, as it went over the wire: signed with the secret for the coordinator's
            // control stream (10), naming this coordinator.
            final Subscription replies = driver.aeron().addSubscription("aeron:udp?endpoint=127.0.0.1:0", 10);
            awaitBound(replies);
            final StreamAddress replyTo = new StreamAddress(replies.channel().replace(":0",
                    ":" + replies.resolvedEndpoint().split(":")[1]), 10);
            final ControlAuthentication insider = new ControlAuthentication(ClusterSecret.read(secret), 4242);
            final Subscription capture = driver.aeron().addSubscription("aeron:ipc", 10);
            final byte[] captured;
            try (ControlPublisher genuine = new ControlPublisher(driver.aeron().addPublication("aeron:ipc", 10), insider,
                    coordinatorIncarnation)) {
                genuine.send(new StatusRequest(replyTo, 99), TimeUnit.SECONDS.toNanos(10));
                captured = awaitOne(capture);
            }
            // A process without the secret sends those bytes to the coordinator again and again.
            final long refusedBefore = cluster.session().clusterStatus().rejectedMessages();
            try (Publication raw = driver.aeron().addPublication(cluster.endpoint().channel(), 10)) {
                for (int i = 0; i < 6; i++) {
                    offer(raw, captured);
                }
            }
            final List<Object> answers = new ArrayList<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() - deadline < 0) {
                replies.poll((buffer, offset, length, header) -> answers.add(new ControlCodec().decode(buffer, offset,
                        length)), 10);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            // The first copy is the genuine request (never seen before): answered once; the five replays refused.
            assertThat(answers).hasSize(1).allMatch(a -> a instanceof Status);
            assertThat(cluster.session().clusterStatus().rejectedMessages()).isGreaterThanOrEqualTo(refusedBefore + 5);
            replies.close();
            capture.close();
        }
        assertClusterAnswers();
    }

    @Test
    void withoutASecretTheCoordinatorRefusesToListenOffLoopback() {
        final Cli.Result r = Cli.run("coordinator", "--listen", "0.0.0.0:0", "--store", oracle.store().dir().toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("without a cluster secret", "--secret-file", "127.0.0.1");
    }

    private static void awaitBound(final Subscription s) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (s.resolvedEndpoint() == null && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertThat(s.resolvedEndpoint()).as("bound UDP port").isNotNull();
    }

    private static byte[] awaitOne(final Subscription s) {
        final byte[][] got = new byte[1][];
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (got[0] == null && System.nanoTime() - deadline < 0) {
            s.poll((buffer, offset, length, header) -> {
                got[0] = new byte[length];
                buffer.getBytes(offset, got[0]);
            }, 1);
        }
        assertThat(got[0]).as("the captured message").isNotNull();
        return got[0];
    }

    private static void offer(final Publication p, final byte[] bytes) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        final UnsafeBuffer b = new UnsafeBuffer(bytes);
        while (p.offer(b) < 0) {
            assertThat(System.nanoTime() - deadline).as("offer to " + p.channel()).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
