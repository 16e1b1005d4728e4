package io.sluice.perf.jmh;

import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.FrameHandler;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FrameOpener;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.FrameSealer;
import io.sluice.transport.FrameSubscriber;
import io.sluice.transport.TransportContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Frames through the transport, in messages per second (times {@code size} for bytes per second):
 * a {@link FramePublisher} on the benchmark thread to a {@link FrameSubscriber} polled by its own
 * agent thread, over {@code aeron:ipc} and over {@code aeron:udp} on loopback (one JVM, one embedded
 * driver in SHARED mode, the tuned defaults of {@link TransportContext}), next to a bare Aeron
 * publication and subscription (with a {@code FragmentAssembler}) moving the same payload bytes:
 * the ratio of the two is what framing costs. {@code framed} runs with {@code data=plain} (a cluster
 * without a secret) and {@code data=encrypted} (with one: every frame sealed with AES-GCM by the sender
 * and opened, with the replay check, by the receiver before it is read) on the same kind of
 * publication: encrypted / plain is what confidentiality and authentication cost.
 *
 * <p>Each message is sent until accepted, as the engine sends: the rate is the one the receiver
 * and the driver sustain.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public class TransportBenchmark {
    static final int STREAM_ID = 1;
    static final int FRAGMENT_LIMIT = 16;

    /** What both paths share: the driver, the channel and the payload. */
    @State(Scope.Thread)
    public abstract static class Path {
        @Param({"ipc", "udp"})
        String transport;

        @Param({"65536", "1048576"})
        int size;

        EmbeddedDriver driver;
        String channel;
        UnsafeBuffer payload;
        AgentRunner receiver;

        void start() {
            driver = EmbeddedDriver.launch(new TransportContext());
            channel = "ipc".equals(transport) ? "aeron:ipc" : "aeron:udp?endpoint=127.0.0.1:" + freeUdpPort();
            payload = new UnsafeBuffer(ByteBuffer.allocateDirect(size));
            final byte[] bytes = new byte[size];
            ThreadLocalRandom.current().nextBytes(bytes);
            payload.putBytes(0, bytes);
        }

        void startReceiver(final Agent agent, final BooleanSupplier connected) {
            final IdleStrategy idle = driver.context().idleKind().newIdleStrategy();
            receiver = new AgentRunner(idle, Throwable::printStackTrace, null, agent);
            AgentRunner.startOnThread(receiver);
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!connected.getAsBoolean()) {
                if (System.nanoTime() - deadlineNs > 0) {
                    throw new IllegalStateException("no subscriber connected to " + channel + " within 10 s");
                }
                idle.idle();
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            CloseHelper.closeAll(receiver, driver);
        }

        private static int freeUdpPort() {
            try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** FramePublisher to FrameSubscriber, in clear text or sealed. */
    public static class Framed extends Path {
        /** The incarnation the benchmark's receiver seals for. */
        private static final long RECEIVER = 0x5EA1ED;

        @Param({"plain", "encrypted"})
        String data;

        FramePublisher publisher;
        long received;

        @Setup(Level.Trial)
        public void setUp() {
            start();
            final ClusterSecret secret = "encrypted".equals(data) ? ClusterSecret.of(
                    "a cluster secret for the benchmark".getBytes(StandardCharsets.UTF_8)) : null;
            final FrameSubscriber subscriber = new FrameSubscriber(driver.aeron().addSubscription(channel, STREAM_ID),
                    secret == null ? null : new FrameOpener(secret, RECEIVER, channel, STREAM_ID));
            publisher = new FramePublisher(driver.aeron().addExclusivePublication(channel, STREAM_ID),
                    driver.context().idleKind().newIdleStrategy(), SystemNanoClock.INSTANCE, TimeUnit.SECONDS.toNanos(10),
                    TimeUnit.SECONDS.toNanos(10), FrameSealer.of(secret, RECEIVER, channel, STREAM_ID));
            final FrameHandler handler = (q, e, s, b, k, buffer, offset, length) -> received += length;
            startReceiver(new Agent() {
                @Override
                public int doWork() {
                    final int work = subscriber.poll(handler, FRAGMENT_LIMIT);
                    if (subscriber.rejectedFrames() > 0) {
                        throw new IllegalStateException("the receiver refused a sealed frame");
                    }
                    return work;
                }

                @Override
                public void onClose() {
                    subscriber.close();
                }

                @Override
                public String roleName() {
                    return "frame-receiver";
                }
            }, publisher::isConnected);
        }
    }

    /** Bare Aeron: offer the payload, poll it through a FragmentAssembler. */
    public static class Bare extends Path {
        ExclusivePublication publication;
        IdleStrategy idle;
        long received;

        @Setup(Level.Trial)
        public void setUp() {
            start();
            final Subscription subscription = driver.aeron().addSubscription(channel, STREAM_ID);
            publication = driver.aeron().addExclusivePublication(channel, STREAM_ID);
            idle = driver.context().idleKind().newIdleStrategy();
            final FragmentAssembler assembler = new FragmentAssembler((buffer, offset, length, header) -> received += length);
            startReceiver(new Agent() {
                @Override
                public int doWork() {
                    return subscription.poll(assembler, FRAGMENT_LIMIT);
                }

                @Override
                public void onClose() {
                    subscription.close();
                }

                @Override
                public String roleName() {
                    return "bare-receiver";
                }
            }, publication::isConnected);
        }

        long send() {
            long result;
            while ((result = publication.offer(payload, 0, size)) < 0) {
                if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                    throw new IllegalStateException("publication " + channel + " refused with " + result);
                }
                idle.idle();
            }
            idle.reset();
            return result;
        }
    }

    @Benchmark
    public long framed(final Framed path) {
        return path.publisher.send(1L, 2, 3, 4, FrameKind.DATA, path.payload, 0, path.size);
    }

    @Benchmark
    public long bare(final Bare path) {
        return path.send();
    }
}
