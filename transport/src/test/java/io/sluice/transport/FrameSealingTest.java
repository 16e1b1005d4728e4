package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.aeron.Publication;
import io.aeron.Subscription;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sealed frames through a real driver, over aeron:ipc and aeron:udp, to a subscriber that opens them:
 * frames a member seals for it arrive decrypted, small and fragmented ones alike, and travel encrypted;
 * frames in clear text, sealed for another receiver or an earlier start of this one or with another
 * secret, altered frames and replays are dropped, counted and named.
 */
class FrameSealingTest {
    private static final int STREAM = 21;
    private static final int CAPTURE_STREAM = 121;
    private static final long RECEIVER = 0x1DEA;
    private static final ClusterSecret SECRET = ClusterSecret.of("the cluster's shared secret".getBytes(
            StandardCharsets.UTF_8));

    private static final class Received implements FrameHandler {
        final List<String> payloads = new ArrayList<>();
        final List<String> rejections = new ArrayList<>();

        @Override
        public void onFrame(final long queryId, final int exchangeId, final int senderCn, final int bucket,
                final FrameKind kind, final DirectBuffer buffer, final int offset, final int length) {
            if (length > 100) {
                // A large payload counts up byte by byte: check every byte arrived as sent.
                for (int i = 0; i < length; i++) {
                    assertThat(buffer.getByte(offset + i)).as("byte %d", i).isEqualTo((byte) i);
                }
                payloads.add("large:" + length);
            } else {
                payloads.add(buffer.getStringWithoutLengthUtf8(offset, length));
            }
        }

        @Override
        public void onRejectedFrame(final String source, final String reason) {
            rejections.add(reason);
        }
    }

    private static String channel(final String transport) throws IOException {
        if ("ipc".equals(transport)) {
            return "aeron:ipc";
        }
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return "aeron:udp?endpoint=127.0.0.1:" + socket.getLocalPort();
        }
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"ipc", "udp"})
    void onlyFramesSealedForThisReceiverArriveAndTheyArriveDecrypted(final String transport) throws IOException {
        final String channel = channel(transport);
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext());
             FrameSubscriber subscriber = new FrameSubscriber(driver.aeron().addSubscription(channel, STREAM),
                     new FrameOpener(SECRET, RECEIVER, channel, STREAM));
             Publication publication = driver.aeron().addPublication(channel, STREAM)) {
            final FramePublisher member = publisher(publication, FrameSealer.of(SECRET, RECEIVER, channel, STREAM));
            final FramePublisher plain = publisher(publication, FrameSealer.plain());
            final FramePublisher earlierStart = publisher(publication,
                    FrameSealer.of(SECRET, RECEIVER + 1, channel, STREAM));
            final FramePublisher otherReceiver = publisher(publication,
                    FrameSealer.of(SECRET, RECEIVER, channel, STREAM + 1));
            final FramePublisher otherSecret = publisher(publication,
                    FrameSealer.of(ClusterSecret.of(new byte[20]), RECEIVER, channel, STREAM));
            Deadline.in(10_000, "connected").doWorkUntil(() -> 0, member::isConnected);
            send(member, "one");
            send(plain, "in clear text");
            send(earlierStart, "for an earlier start of the receiver");
            send(otherReceiver, "for another receiver");
            send(otherSecret, "another secret");
            final UnsafeBuffer large = new UnsafeBuffer(new byte[200_000]);
            for (int i = 0; i < large.capacity(); i++) {
                large.putByte(i, (byte) i);
            }
            member.send(1, 2, 3, 4, FrameKind.DATA, large, 0, large.capacity());
            send(member, "two");

            final Received received = new Received();
            Deadline.in(30_000, "seven frames").doWorkUntil(() -> subscriber.poll(received, 10),
                    () -> received.payloads.size() + received.rejections.size() == 7);
            assertThat(received.payloads).containsExactly("one", "large:200000", "two");
            assertThat(received.rejections).hasSize(4);
            assertThat(received.rejections.get(0)).startsWith("not sealed:");
            assertThat(received.rejections.subList(1, 4)).allMatch(r -> r.startsWith("tag does not match:"));
            assertThat(subscriber.rejectedFrames()).isEqualTo(4);
        }
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"ipc", "udp"})
    void aCapturedFrameSentAgainOrAlteredIsRefused(final String transport) throws IOException {
        final String channel = channel(transport);
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext());
             FrameSubscriber subscriber = new FrameSubscriber(driver.aeron().addSubscription(channel, STREAM),
                     new FrameOpener(SECRET, RECEIVER, channel, STREAM));
             Subscription capture = driver.aeron().addSubscription("aeron:ipc", CAPTURE_STREAM);
             Publication local = driver.aeron().addPublication("aeron:ipc", CAPTURE_STREAM);
             Publication raw = driver.aeron().addPublication(channel, STREAM)) {
            // A frame a member sealed for the receiver, captured as it went on the wire.
            final FramePublisher member = publisher(local, FrameSealer.of(SECRET, RECEIVER, channel, STREAM));
            Deadline.in(10_000, "connected").doWorkUntil(() -> 0, member::isConnected);
            send(member, "rows");
            final byte[][] captured = new byte[1][];
            Deadline.in(10_000, "the captured frame").doWorkUntil(() -> capture.poll((buffer, offset, length, h) -> {
                captured[0] = new byte[length];
                buffer.getBytes(offset, captured[0]);
            }, 1), () -> captured[0] != null);
            final UnsafeBuffer frame = new UnsafeBuffer(captured[0]);
            assertThat(new String(captured[0], StandardCharsets.UTF_8)).as("encrypted on the wire").doesNotContain("rows");
            final UnsafeBuffer altered = new UnsafeBuffer(captured[0].clone());
            altered.putByte(FrameHeader.LENGTH, (byte) (altered.getByte(FrameHeader.LENGTH) ^ 1));
            final UnsafeBuffer garbage = new UnsafeBuffer("not a frame at all".getBytes(StandardCharsets.UTF_8));
            for (final UnsafeBuffer message : List.of(frame, frame, altered, garbage)) {
                Deadline.in(10_000, "offer").doWorkUntil(() -> 0, () -> raw.offer(message) > 0);
            }
            final Received received = new Received();
            Deadline.in(30_000, "four messages").doWorkUntil(() -> subscriber.poll(received, 10),
                    () -> received.payloads.size() + received.rejections.size() == 4);
            assertThat(received.payloads).containsExactly("rows");
            assertThat(received.rejections).hasSize(3);
            assertThat(received.rejections.get(0)).startsWith("replay: frame 1 under key ").endsWith("came before");
            assertThat(received.rejections.get(1)).startsWith("tag does not match:").contains("altered on the way");
            assertThat(received.rejections.get(2)).startsWith("not a frame:");
        }
    }

    private static FramePublisher publisher(final Publication publication, final FrameSealer sealer) {
        return FramePublisher.sharing(publication, new YieldingIdleStrategy(), SystemNanoClock.INSTANCE,
                10_000_000_000L, 10_000_000_000L, sealer);
    }

    private static void send(final FramePublisher publisher, final String text) {
        final UnsafeBuffer payload = new UnsafeBuffer(text.getBytes(StandardCharsets.UTF_8));
        publisher.send(1, 2, 3, 4, FrameKind.DATA, payload, 0, payload.capacity());
    }
}
