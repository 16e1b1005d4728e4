package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.storage.Table;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.Endpoint;
import io.sluice.transport.FrameHeader;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.FrameSigner;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Between CN processes over UDP, with a cluster secret: blocks sent as stored are tagged and verified
 * like every frame (a frame that failed verification would never arrive, and the query would miss its
 * rows), their count reaches the coordinator's stats, and the answers equal DuckDB's. A stored block
 * framed and signed for a CN with the cluster's secret, then changed by one byte, is refused there
 * before anything reads it, and the CN says so naming the sender.
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

    @Test
    void aStoredBlockFlippedAfterSigningIsRefusedByTheCnNamingTheSender() throws Exception {
        final MemberStatus target = cluster.session().status().get(0);
        final String channel = Endpoint.parse(target.endpoint(), false).channel();
        final int dataStream = 11;
        final ExpandableArrayBuffer payload = new ExpandableArrayBuffer(1024);
        final int length;
        try (Table nation = oracle.store().table("nation")) {
            length = nation.storedBlock(0, 0, 1, 2).copyTo(payload, 0);
        }
        try (EmbeddedDriver driver = EmbeddedDriver.launch(Session.defaultTransport());
             Subscription capture = driver.aeron().addSubscription("aeron:ipc", dataStream);
             Publication local = driver.aeron().addPublication("aeron:ipc", dataStream);
             Publication toCn = driver.aeron().addPublication(channel, dataStream)) {
            // A frame exactly as a member of the cluster signs it for that CN's data stream, captured whole.
            final FramePublisher signed = FramePublisher.sharing(local, new BackoffIdleStrategy(), SystemNanoClock.INSTANCE,
                    TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(10),
                    FrameSigner.of(ClusterSecret.read(fixture.secretFile()), 0x5107ED, channel, dataStream));
            signed.send(424242, 1, 1, 0, FrameKind.DATA, payload, 0, length);
            final byte[] frame = awaitOne(capture);
            assertThat(frame).hasSize(FrameHeader.LENGTH + length);
            // One bit of the stored column data, after the tag was computed.
            final int flipAt = FrameHeader.LENGTH + length - 9;
            frame[flipAt] ^= 0x04;
            final long refusedBefore = target.rejectedMessages();
            final UnsafeBuffer flipped = new UnsafeBuffer(frame);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (toCn.offer(flipped, 0, frame.length) < 0) {
                assertThat(System.nanoTime() - deadline).as("offer to %s", channel).isNegative();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            // A CN reads its data stream while it runs a query: one that moves blocks between the CNs, whose
            // answer the refused frame must not touch.
            final Query query = TpchOracle.query("join_lo");
            final Session session = cluster.session();
            session.shape(2, 2);
            oracle.assertSameAsDuckDb(query, session.execute(query.name(), query.plan(),
                    StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_RANGE)).result());
            cluster.awaitMembers(now -> now.stream().anyMatch(m -> m.name().equals(target.name())
                    && m.rejectedMessages() > refusedBefore), target.name() + " to refuse the flipped stored block");
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (cluster.cn(target.name()).stdout().stream().noneMatch(l -> l.contains("tag does not match"))) {
            assertThat(System.nanoTime() - deadline).as("%s logs the refusal: %s", target.name(),
                    cluster.cn(target.name()).stdout()).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        final List<String> lines = cluster.cn(target.name()).stdout().stream()
                .filter(l -> l.contains("tag does not match")).toList();
        assertThat(lines.get(0)).contains("dropped a message from");
        assertThat(cluster.cn(target.name()).isAlive()).isTrue();
    }

    /** The first whole message on {@code s}, reassembled from its fragments. */
    private static byte[] awaitOne(final Subscription s) {
        final byte[][] got = new byte[1][];
        final FragmentAssembler assembler = new FragmentAssembler((buffer, offset, length, header) -> {
            got[0] = new byte[length];
            buffer.getBytes(offset, got[0]);
        });
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (got[0] == null) {
            assertThat(System.nanoTime() - deadline).as("the captured frame").isNegative();
            if (s.poll(assembler, 10) == 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        return got[0];
    }
}
