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
import io.sluice.transport.FrameCipher;
import io.sluice.transport.FrameHeader;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.FrameSealer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * Between CN processes over UDP, with a cluster secret: blocks sent as stored are sealed and opened
 * like every frame (a frame that failed to open would never arrive, and the query would miss its
 * rows), their count reaches the coordinator's stats, and the answers equal DuckDB's. A stored block
 * sealed for a CN with the cluster's secret is read there, and refused before anything reads it once
 * one bit of it is changed, the CN saying so naming the sender.
 */
class StoredBlocksOnProcessesTest {
    private static final Pattern JOINED = Pattern.compile(" joined: CN .*, incarnation ([0-9a-f]+)\\)");

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

    @ParameterizedTest(name = "{0} under {1} on 2 sealing CN processes")
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
    void aStoredBlockSealedForACnOpensThereAndIsRefusedOnceOneBitChangesNamingTheSender() throws Exception {
        final MemberStatus target = cluster.session().status().get(0);
        final String channel = Endpoint.parse(target.endpoint(), false).channel();
        final int dataStream = 11;
        final long incarnation = incarnationOf(target.name());
        final ExpandableArrayBuffer payload = new ExpandableArrayBuffer(1024);
        final int length;
        try (Table nation = oracle.store().table("nation")) {
            length = nation.storedBlock(0, 0, 1, 2).copyTo(payload, 0);
        }
        try (EmbeddedDriver driver = EmbeddedDriver.launch(Session.defaultTransport());
             Subscription capture = driver.aeron().addSubscription("aeron:ipc", dataStream);
             Publication local = driver.aeron().addPublication("aeron:ipc", dataStream);
             Publication toCn = driver.aeron().addPublication(channel, dataStream)) {
            // A frame exactly as a member of the cluster seals it for that CN (its address and the incarnation it
            // registered with), captured whole.
            final FramePublisher sealing = FramePublisher.sharing(local, new BackoffIdleStrategy(),
                    SystemNanoClock.INSTANCE, TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(10),
                    FrameSealer.of(ClusterSecret.read(fixture.secretFile()), incarnation, channel, dataStream));
            sealing.send(424242, 1, 1, 0, FrameKind.DATA, payload, 0, length);
            final byte[] frame = awaitOne(capture);
            assertThat(frame).hasSize(FrameHeader.LENGTH + length + FrameCipher.TAG_LENGTH);
            final byte[] plain = new byte[length];
            payload.getBytes(0, plain);
            assertThat(Arrays.copyOfRange(frame, FrameHeader.LENGTH, FrameHeader.LENGTH + length))
                    .as("the block travels encrypted").isNotEqualTo(plain);
            // The frame as sealed, then a copy with one bit of the stored column data changed on the way.
            final byte[] flipped = frame.clone();
            flipped[FrameHeader.LENGTH + length - 9] ^= 0x04;
            final long refusedBefore = target.rejectedMessages();
            for (final byte[] message : List.of(frame, flipped)) {
                final UnsafeBuffer buffer = new UnsafeBuffer(message);
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (toCn.offer(buffer, 0, message.length) < 0) {
                    assertThat(System.nanoTime() - deadline).as("offer to %s", channel).isNegative();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
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
        // "Known here": the frame as sealed opened at the CN first, so its key was the right one and the
        // changed bit alone made the copy fail.
        assertThat(lines.get(0)).contains("dropped a message from").contains("known here from CN 1, was altered on"
                + " the way");
        assertThat(cluster.cn(target.name()).isAlive()).isTrue();
    }

    /** The incarnation a CN process registered with, from the line it logs on joining. */
    private static long incarnationOf(final String cn) {
        for (final String line : cluster.cn(cn).stdout()) {
            final Matcher m = JOINED.matcher(line);
            if (m.find()) {
                return Long.parseUnsignedLong(m.group(1), 16);
            }
        }
        throw new AssertionError(cn + " logged no join line with its incarnation: " + cluster.cn(cn).stdout());
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
