package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.aeron.Publication;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

/**
 * Frames through a real driver over aeron:ipc to a subscriber that verifies them: frames its cluster's
 * members sign for it arrive, small and fragmented ones alike; unsigned frames, frames signed for
 * another receiver or with another secret, altered frames and replays are dropped and counted.
 */
class FrameVerificationTest {
    private static final String IPC = "aeron:ipc";
    private static final int STREAM = 21;
    private static final ClusterSecret SECRET = ClusterSecret.of("the cluster's shared secret".getBytes(
            StandardCharsets.UTF_8));

    private static final class Received implements FrameHandler {
        final List<String> payloads = new ArrayList<>();
        final List<String> rejections = new ArrayList<>();

        @Override
        public void onFrame(final long queryId, final int exchangeId, final int senderCn, final int bucket,
                final FrameKind kind, final DirectBuffer buffer, final int offset, final int length) {
            payloads.add(length > 100 ? "large:" + length : buffer.getStringWithoutLengthUtf8(offset, length));
        }

        @Override
        public void onRejectedFrame(final String source, final String reason) {
            rejections.add(reason);
        }
    }

    @Test
    void onlyFramesSignedForThisReceiverAndNotSeenBeforeArrive() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext());
             FrameSubscriber subscriber = new FrameSubscriber(driver.aeron().addSubscription(IPC, STREAM),
                     new FrameVerifier(SECRET, IPC, STREAM));
             Publication publication = driver.aeron().addPublication(IPC, STREAM)) {
            final FramePublisher member = publisher(publication, FrameSigner.of(SECRET, 11, IPC, STREAM));
            final FramePublisher unsigned = publisher(publication, FrameSigner.unsigned(12));
            final FramePublisher otherReceiver = publisher(publication, FrameSigner.of(SECRET, 13, IPC, STREAM + 1));
            final FramePublisher otherSecret = publisher(publication,
                    FrameSigner.of(ClusterSecret.of(new byte[20]), 14, IPC, STREAM));
            send(member, "one");
            send(unsigned, "unsigned");
            send(otherReceiver, "for another receiver");
            send(otherSecret, "another secret");
            final UnsafeBuffer large = new UnsafeBuffer(new byte[200_000]);
            member.send(1, 2, 3, 4, FrameKind.DATA, large, 0, large.capacity());
            send(member, "two");

            final Received received = new Received();
            Deadline.in(30_000, "six frames").doWorkUntil(() -> subscriber.poll(received, 10),
                    () -> received.payloads.size() + received.rejections.size() == 6);
            assertThat(received.payloads).containsExactly("one", "large:200000", "two");
            assertThat(received.rejections).hasSize(3).allMatch(r -> r.startsWith("tag does not match:"));
            assertThat(subscriber.rejectedFrames()).isEqualTo(3);
        }
    }

    @Test
    void aReplayedOrAlteredFrameIsRefused() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext());
             FrameSubscriber subscriber = new FrameSubscriber(driver.aeron().addSubscription(IPC, STREAM),
                     new FrameVerifier(SECRET, IPC, STREAM));
             Publication raw = driver.aeron().addPublication(IPC, STREAM)) {
            // A captured frame: made by a member, as it went on the wire.
            final byte[] payload = "rows".getBytes(StandardCharsets.UTF_8);
            final UnsafeBuffer frame = new UnsafeBuffer(new byte[FrameHeader.LENGTH + payload.length]);
            FrameHeader.encode(frame, 0, 1, 2, 3, 4, FrameKind.DATA, payload.length, 99, 1);
            frame.putBytes(FrameHeader.LENGTH, payload);
            new MessageAuthenticator(FrameSigner.receiverKey(SECRET, IPC, STREAM)).sign(frame, 0, frame.capacity(),
                    FrameHeader.TAG_OFFSET);
            final UnsafeBuffer altered = new UnsafeBuffer(frame.byteArray().clone());
            altered.putByte(FrameHeader.LENGTH, (byte) 'R');
            final UnsafeBuffer garbage = new UnsafeBuffer("not a frame at all".getBytes(StandardCharsets.UTF_8));
            for (final UnsafeBuffer message : List.of(frame, frame, altered, garbage)) {
                Deadline.in(10_000, "offer").doWorkUntil(() -> 0, () -> raw.offer(message) > 0);
            }
            final Received received = new Received();
            Deadline.in(30_000, "four messages").doWorkUntil(() -> subscriber.poll(received, 10),
                    () -> received.payloads.size() + received.rejections.size() == 4);
            assertThat(received.payloads).containsExactly("rows");
            assertThat(received.rejections).hasSize(3);
            assertThat(received.rejections.get(0)).startsWith("replay: frame 1 of sender 63");
            assertThat(received.rejections.get(1)).contains("tag does not match");
            assertThat(received.rejections.get(2)).startsWith("not a frame:");
        }
    }

    private static FramePublisher publisher(final Publication publication, final FrameSigner signer) {
        return FramePublisher.sharing(publication, new YieldingIdleStrategy(), SystemNanoClock.INSTANCE,
                10_000_000_000L, 10_000_000_000L, signer);
    }

    private static void send(final FramePublisher publisher, final String text) {
        final UnsafeBuffer payload = new UnsafeBuffer(text.getBytes(StandardCharsets.UTF_8));
        publisher.send(1, 2, 3, 4, FrameKind.DATA, payload, 0, payload.capacity());
    }
}
