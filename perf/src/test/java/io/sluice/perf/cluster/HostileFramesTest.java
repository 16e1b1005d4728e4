package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.aeron.Publication;
import io.sluice.dispatch.BatchCodec;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlCodec;
import io.sluice.dispatch.control.ControlMessage.Cancel;
import io.sluice.dispatch.control.ControlMessage.CnHeartbeat;
import io.sluice.dispatch.control.ControlMessage.Hello;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Prepare;
import io.sluice.dispatch.control.ControlMessage.QueryRequest;
import io.sluice.dispatch.control.ControlMessage.Register;
import io.sluice.dispatch.control.ControlMessage.ResultBatch;
import io.sluice.dispatch.control.ControlMessage.Start;
import io.sluice.dispatch.control.ControlMessage.StatusRequest;
import io.sluice.dispatch.control.ControlMessage;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.LongVector;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.shuffle.operator.Batch;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.Endpoint;
import io.sluice.transport.FrameHeader;
import io.sluice.transport.FrameKind;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stranger without the cluster secret sends a coordinator and two CN processes over 10,000 mutated and
 * random messages on every stream they listen on (control, results, data), while a client runs queries:
 * truncated and padded messages, wrong kinds and types, lengths claiming gigabytes, valid headers over
 * garbage, real encoded batches in clear text or claiming to be sealed, control messages without a valid
 * tag, other versions; and 1,000 raw UDP datagrams at the same ports. No process crashes, every query finishes and equals DuckDB, and every
 * message the stranger got through is counted as refused. The generator is seeded; a failure prints the
 * seed.
 */
class HostileFramesTest {
    private static final long SEED = 20261201L;
    private static final int FRAMES = 12_000;
    private static final int DATAGRAMS = 1_000;

    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static ProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopbackWithSecret(dir, 0.01, 2, 1, "-Xmx256m");
        oracle = fixture.oracle();
        cluster = fixture.cluster();
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** A message the stranger may send: mutated from a real one, or random, by the seeded generator. */
    private static final class Generator {
        private final SplittableRandom random;
        private final ControlCodec codec = new ControlCodec();
        private final BatchCodec batches = new BatchCodec();
        private final List<ControlMessage> controls;

        Generator(final long seed, final StreamAddress replyTo) {
            this.random = new SplittableRandom(seed);
            this.controls = List.of(new Hello(replyTo, 5, 0), new Register(replyTo, "stranger", 2, replyTo, 1, 5, "dev", 0),
                    new QueryRequest(replyTo, 1, "q6", 0, 0, new byte[] {1, 2, 3}, 0, false), new StatusRequest(replyTo, 2),
                    new CnHeartbeat(1, 5, 0, 1, 0, 0), new Prepare(7, "q6", 0, 1, 1, List.of(replyTo), List.of(5L), new byte[8],
                            false, List.of()),
                    new Start(7), new Cancel(7, "stranger"), new ResultBatch(7, 0, new byte[64]));
        }

        byte[] controlMessage() {
            final byte[] bytes = codec.toBytes(controls.get(random.nextInt(controls.size())));
            // A tag that is not the secret's: random, or left zero.
            if (random.nextBoolean()) {
                for (int i = bytes.length - 16; i < bytes.length; i++) {
                    bytes[i] = (byte) random.nextInt(256);
                }
            }
            return mutate(bytes);
        }

        byte[] dataFrame() {
            final boolean realBatch = random.nextInt(4) != 0;
            final long[] keys = new long[1 + random.nextInt(200)];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = random.nextLong();
            }
            final int payload = realBatch ? batches.encode(Batch.of(LongVector.ofInt64(keys))) : random.nextInt(3000);
            final byte[] bytes = new byte[FrameHeader.LENGTH + payload];
            final UnsafeBuffer frame = new UnsafeBuffer(bytes);
            final FrameKind[] kinds = FrameKind.values();
            FrameHeader.encode(frame, 0, random.nextLong(), random.nextInt(8), random.nextInt(4), random.nextInt(8),
                    kinds[random.nextInt(kinds.length)], payload, random.nextLong(), 1 + random.nextInt(1000));
            if (realBatch) {
                frame.putBytes(FrameHeader.LENGTH, batches.buffer(), 0, payload);
            } else {
                for (int b = FrameHeader.LENGTH; b < bytes.length; b++) {
                    bytes[b] = (byte) random.nextInt(256);
                }
            }
            switch (random.nextInt(4)) {
                case 0 -> frame.putByte(FrameHeader.KIND_OFFSET, (byte) random.nextInt(256));
                case 1 -> frame.putInt(FrameHeader.PAYLOAD_LENGTH_OFFSET, random.nextInt(), ByteOrder.LITTLE_ENDIAN);
                // Claims to be sealed: the last bytes stand for a tag no key made.
                case 2 -> frame.putByte(FrameHeader.FLAGS_OFFSET, FrameHeader.FLAG_SEALED);
                default -> { }
            }
            return mutate(bytes);
        }

        byte[] randomBytes() {
            final byte[] bytes = new byte[random.nextInt(random.nextBoolean() ? 100 : 20_000)];
            random.nextBytes(bytes);
            return bytes;
        }

        /** Flips, truncates or pads a message, or claims a huge length in it, or leaves it whole. */
        private byte[] mutate(final byte[] bytes) {
            switch (random.nextInt(5)) {
                case 0 -> {
                    for (int flips = 1 + random.nextInt(6); flips > 0 && bytes.length > 0; flips--) {
                        bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                    }
                    return bytes;
                }
                case 1 -> {
                    return java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length + 1));
                }
                case 2 -> {
                    return java.util.Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(200));
                }
                case 3 -> {
                    if (bytes.length >= 12) {
                        new UnsafeBuffer(bytes).putInt(8 + random.nextInt(bytes.length - 11),
                                Integer.MAX_VALUE - random.nextInt(16), ByteOrder.LITTLE_ENDIAN);
                    }
                    return bytes;
                }
                default -> {
                    return bytes;
                }
            }
        }
    }

    @Test
    void nothingAStrangerSendsStopsTheClusterOrChangesAnAnswer() throws Exception {
        final List<MemberStatus> members = cluster.session().status();
        final List<Endpoint> cnPorts = new ArrayList<>();
        for (final MemberStatus m : members) {
            cnPorts.add(Endpoint.parse(m.endpoint(), false));
        }
        final Endpoint coordinator = cluster.endpoint();
        final AtomicBoolean fuzzing = new AtomicBoolean(true);
        final AtomicInteger queriesChecked = new AtomicInteger();
        final AtomicReference<Throwable> queryFailure = new AtomicReference<>();
        final Thread queries = new Thread(() -> {
            final String[] names = {"q1", "q3", "q6", "join_lo", "q18", "grp_orderkey"};
            try (Session client = cluster.connect()) {
                for (int i = 0; fuzzing.get() || i < 12; i++) {
                    final Query q = TpchOracle.query(names[i % names.length]);
                    oracle.assertSameAsDuckDb(q, client.execute(q.name(), q.plan(), StrategyConfig.defaults(), 60_000)
                            .result());
                    queriesChecked.incrementAndGet();
                }
            } catch (final Throwable t) {
                queryFailure.set(t);
            }
        }, "hostile-frames-queries");
        queries.start();

        final long[] sentTo = new long[1 + cnPorts.size()];
        try (EmbeddedDriver stranger = EmbeddedDriver.launch(Session.defaultTransport());
             DatagramSocket udp = new DatagramSocket()) {
            final List<Publication> targets = new ArrayList<>();
            final List<Integer> owner = new ArrayList<>();
            for (final int stream : new int[] {10, 12}) {
                targets.add(stranger.aeron().addPublication(coordinator.channel(), stream));
                owner.add(0);
            }
            for (int c = 0; c < cnPorts.size(); c++) {
                for (final int stream : new int[] {10, 11}) {
                    targets.add(stranger.aeron().addPublication(cnPorts.get(c).channel(), stream));
                    owner.add(1 + c);
                }
            }
            final Generator generator = new Generator(SEED, new StreamAddress("aeron:udp?endpoint=127.0.0.1:9", 10));
            for (int i = 0; i < FRAMES; i++) {
                final int t = i % targets.size();
                final Publication p = targets.get(t);
                final byte[] message = switch (i % 3) {
                    case 0 -> generator.controlMessage();
                    case 1 -> p.streamId() == 11 ? generator.dataFrame() : generator.controlMessage();
                    default -> generator.randomBytes();
                };
                if (message.length == 0) {
                    continue;
                }
                offer(p, message, "frame " + i + " (seed " + SEED + ")");
                sentTo[owner.get(t)]++;
            }
            final SplittableRandom random = new SplittableRandom(SEED + 1);
            final List<Endpoint> ports = new ArrayList<>(cnPorts);
            ports.add(coordinator);
            for (int i = 0; i < DATAGRAMS; i++) {
                final byte[] datagram = new byte[1 + random.nextInt(1400)];
                random.nextBytes(datagram);
                final Endpoint to = ports.get(i % ports.size());
                udp.send(new DatagramPacket(datagram, datagram.length, InetAddress.getByName(to.host()), to.port()));
            }
            // Every message the stranger got through is counted as refused where it went, while its
            // publications are still open to deliver them.
            final List<MemberStatus> after = cluster.awaitMembers(now -> now.size() == cnPorts.size()
                    && now.get(0).rejectedMessages() >= sentTo[1] && now.get(1).rejectedMessages() >= sentTo[2],
                    "each CN to count the stranger's " + sentTo[1] + " and " + sentTo[2] + " messages as refused");
            final long coordinatorRefused = awaitCoordinatorRefused(sentTo[0]);
            System.out.printf("HostileFramesTest: %d messages (seed %d) and %d datagrams sent; refused: coordinator"
                    + " %d of %d, CNs %s of %d and %d; %d queries checked meanwhile%n", FRAMES, SEED, DATAGRAMS,
                    coordinatorRefused, sentTo[0], after.stream().map(m -> m.name() + "=" + m.rejectedMessages()).toList(),
                    sentTo[1], sentTo[2], queriesChecked.get());
        } finally {
            fuzzing.set(false);
        }
        queries.join(TimeUnit.MINUTES.toMillis(5));
        assertThat(queries.isAlive()).as("the queries finished (no hang)").isFalse();
        assertThat(queryFailure.get()).as("every query answered as DuckDB does (seed " + SEED + ")").isNull();
        assertThat(queriesChecked.get()).isGreaterThanOrEqualTo(12);
        assertThat(cluster.cn("cn0").isAlive()).isTrue();
        assertThat(cluster.cn("cn1").isAlive()).isTrue();
        assertThat(cluster.coordinator().isAlive()).isTrue();
    }

    private static long awaitCoordinatorRefused(final long atLeast) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long refused = 0;
        while (System.nanoTime() - deadline < 0) {
            refused = cluster.session().clusterStatus().rejectedMessages();
            if (refused >= atLeast) {
                return refused;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        throw new AssertionError("the coordinator counted " + refused + " refused messages, the stranger sent it "
                + atLeast + "\n" + cluster.diagnostics());
    }

    private static void offer(final Publication p, final byte[] message, final String what) {
        final UnsafeBuffer buffer = new UnsafeBuffer(message);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (p.offer(buffer, 0, message.length) < 0) {
            assertThat(System.nanoTime() - deadline).as("%s to %s stream %d", what, p.channel(), p.streamId())
                    .isNegative();
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
        }
    }

}
