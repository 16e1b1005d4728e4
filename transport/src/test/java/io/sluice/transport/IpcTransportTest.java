package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Frames through a real embedded driver over aeron:ipc, sender and receiver on two threads. */
class IpcTransportTest {
    private static final String IPC = "aeron:ipc";
    private static final int MiB = 1024 * 1024;

    @Test
    void tenThousandFramesUpToFourMibArriveIntactAndInOrder() throws Exception {
        // 32 MiB terms allow 4 MiB messages; the log is 96 MiB of /dev/shm while the test runs.
        final TransportContext context = new TransportContext().termLength(32 * MiB);
        try (EmbeddedDriver driver = EmbeddedDriver.launch(context);
             FrameSubscriber subscriber = driver.addSubscriber(IPC, 10);
             FramePublisher publisher = driver.addPublisher(IPC, 10)) {
            final int maxPayload = publisher.maxPayloadLength();
            assertThat(maxPayload).isEqualTo(4 * MiB - FrameHeader.LENGTH);
            final int frames = 10_000;
            final int[] sizes = sizes(frames, maxPayload, context.mtuLength(), new SplittableRandom(7));
            final UnsafeBuffer source = randomBytes(2 * 4 * MiB, 11);
            final ExpectedFrames expected = new ExpectedFrames(sizes, source);

            final Thread sender = startSender(publisher, expected, frames);
            try {
                Deadline.in(180_000, "10,000 frames over " + IPC)
                        .doWorkUntil(() -> subscriber.poll(expected, 64), () -> expected.received == frames
                                || sender.getState() == Thread.State.TERMINATED && expected.failure.get() != null);
                sender.join(TimeUnit.SECONDS.toMillis(30));
            } finally {
                stop(sender);
            }
            assertThat(expected.failure.get()).isNull();
            assertThat(expected.received).isEqualTo(frames);
            assertThat(subscriber.messages()).isEqualTo(frames);
            assertThat(subscriber.bytes()).isEqualTo(expected.totalBytes());
            assertThat(publisher.messages()).isEqualTo(frames);
            assertThat(publisher.bytes()).isEqualTo(expected.totalBytes());
        }
    }

    @Test
    void tinyTermAndSlowSubscriberLoseNothing() throws Exception {
        final TransportContext context = new TransportContext().termLength(64 * 1024).mtuLength(8192);
        try (EmbeddedDriver driver = EmbeddedDriver.launch(context);
             FrameSubscriber subscriber = driver.addSubscriber(IPC, 11);
             FramePublisher publisher = driver.addPublisher(IPC, 11)) {
            final int frames = 2_000;
            final int maxPayload = publisher.maxPayloadLength();
            assertThat(maxPayload).isEqualTo(8 * 1024 - FrameHeader.LENGTH);
            final int[] sizes = sizes(frames, maxPayload, context.mtuLength(), new SplittableRandom(3));
            final ExpectedFrames expected = new ExpectedFrames(sizes, randomBytes(2 * maxPayload, 5));

            final Thread sender = startSender(publisher, expected, frames);
            try {
                final SleepingIdleStrategy slow = new SleepingIdleStrategy(TimeUnit.MICROSECONDS.toNanos(50));
                final Deadline deadline = Deadline.in(120_000, "2,000 frames through a 64 KiB term");
                while (expected.received < frames && expected.failure.get() == null) {
                    deadline.check();
                    subscriber.poll(expected, 1);
                    slow.idle();
                }
                sender.join(TimeUnit.SECONDS.toMillis(30));
            } finally {
                stop(sender);
            }
            assertThat(expected.failure.get()).isNull();
            assertThat(expected.received).isEqualTo(frames);
            assertThat(expected.backPressureRetries).as("the slow subscriber must have back-pressured the sender")
                    .isPositive();
        }
    }

    @Test
    void malformedMessagesOnTheStreamFailThePollWithTheFaultNamedAndAreSkipped() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(64 * 1024).mtuLength(8192));
             FrameSubscriber subscriber = driver.addSubscriber(IPC, 12);
             ExclusivePublication raw = driver.aeron().addExclusivePublication(IPC, 12)) {
            final UnsafeBuffer message = new UnsafeBuffer(new byte[128]);

            message.putLong(0, 0x0123_4567_89AB_CDEFL);
            offer(raw, message, FrameHeader.LENGTH + 16);
            assertPollFails(subscriber, "bad magic 0x89abcdef");

            FrameHeader.encode(message, 0, 1, 2, 3, 4, FrameKind.DATA, 16);
            offer(raw, message, 20);
            assertPollFails(subscriber, "truncated frame: 20 bytes");

            offer(raw, message, FrameHeader.LENGTH + 8);
            assertPollFails(subscriber, "payload length 16 in the header, but the message has 8 bytes");

            offer(raw, message, FrameHeader.LENGTH + 16);
            final long[] seen = new long[1];
            Deadline.in(10_000, "the valid frame after the malformed ones").doWorkUntil(
                    () -> subscriber.poll((q, e, s, b, k, buffer, offset, length) -> seen[0] = q * 100 + length, 10),
                    () -> seen[0] != 0);
            assertThat(seen[0]).isEqualTo(116);
        }
    }

    @Test
    void aMalformedFrameWhoseHeaderNamesItsTargetGoesToTheHandlerWithThatAddress() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(64 * 1024).mtuLength(8192));
             FrameSubscriber subscriber = driver.addSubscriber(IPC, 21);
             ExclusivePublication raw = driver.aeron().addExclusivePublication(IPC, 21)) {
            final UnsafeBuffer message = new UnsafeBuffer(new byte[128]);
            FrameHeader.encode(message, 0, 5, 6, 7, 8, FrameKind.DATA, 16);
            offer(raw, message, FrameHeader.LENGTH + 8);
            FrameHeader.encode(message, 0, 9, 10, 11, 12, FrameKind.EOS, 0);
            message.putByte(FrameHeader.KIND_OFFSET, (byte) 9);
            offer(raw, message, FrameHeader.LENGTH);

            final List<String> faults = new ArrayList<>();
            final FrameHandler routing = new FrameHandler() {
                @Override
                public void onFrame(final long queryId, final int exchangeId, final int senderCn, final int bucket,
                        final FrameKind kind, final DirectBuffer buffer, final int offset, final int length) {
                    throw new AssertionError("a malformed message was delivered as a frame of query " + queryId);
                }

                @Override
                public void onMalformedFrame(final long queryId, final int exchangeId, final int senderCn,
                        final int bucket, final MalformedFrameException fault) {
                    faults.add(queryId + "/" + exchangeId + "/" + senderCn + "/" + bucket + ": " + fault.getMessage());
                }
            };
            Deadline.in(10_000, "two malformed frames").doWorkUntil(() -> subscriber.poll(routing, 10),
                    () -> faults.size() == 2);
            assertThat(faults.get(0)).startsWith("5/6/7/8: malformed frame on subscription aeron:ipc stream 21")
                    .contains("payload length 16 in the header, but the message has 8 bytes");
            assertThat(faults.get(1)).startsWith("9/10/11/12: ").contains("unknown frame kind code 9");
            assertThat(subscriber.messages()).isZero();
        }
    }

    @Test
    void publishersSharingOneConcurrentPublicationEachKeepTheirOrderAndCloseOnlyThemselves() throws Exception {
        // 256 KiB terms take 32 KiB messages: larger than the 8 KiB MTU, so Aeron fragments them.
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(256 * 1024).mtuLength(8192));
             FrameSubscriber subscriber = driver.addSubscriber(IPC, 22);
             Publication shared = driver.aeron().addPublication(IPC, 22)) {
            final int senders = 3;
            final int framesEach = 2_000;
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[9000]);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread[] threads = new Thread[senders];
            for (int s = 0; s < senders; s++) {
                final int sender = s;
                threads[s] = new Thread(() -> {
                    try (FramePublisher publisher = FramePublisher.sharing(shared, new SleepingIdleStrategy(),
                            SystemNanoClock.INSTANCE, TimeUnit.SECONDS.toNanos(10),
                            TimeUnit.SECONDS.toNanos(60))) {
                        for (int i = 0; i < framesEach; i++) {
                            // Sizes on both sides of the 8 KiB MTU: whole claims and fragmented offers interleave.
                            final int length = i % 5 == 0 ? 3000 * (1 + sender) : i % 64;
                            publisher.send(sender, i, sender, i, FrameKind.DATA, payload, 0, length);
                        }
                    } catch (final Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }, "shared-sender-" + s);
                threads[s].start();
            }
            final int[] next = new int[senders];
            final FrameHandler inOrder = (q, e, s, b, k, buffer, offset, length) -> {
                if (e != next[s]) {
                    throw new AssertionError("sender " + s + " frame " + e + " arrived, expected " + next[s]);
                }
                next[s]++;
            };
            Deadline.in(60_000, "every frame of every sender").doWorkUntil(() -> {
                if (failure.get() != null) {
                    throw new AssertionError("a sender failed", failure.get());
                }
                return subscriber.poll(inOrder, 64);
            }, () -> next[0] + next[1] + next[2] == senders * framesEach);
            for (final Thread thread : threads) {
                thread.join(10_000);
            }
            assertThat(failure.get()).isNull();
            assertThat(shared.isClosed()).as("closing the sharing publishers closed the publication").isFalse();
        }
    }

    @Test
    void anExceptionFromTheHandlerIsThrownFromPollAndTheFrameIsConsumed() throws Exception {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(64 * 1024).mtuLength(8192));
             FrameSubscriber subscriber = driver.addSubscriber(IPC, 16);
             FramePublisher publisher = driver.addPublisher(IPC, 16)) {
            publisher.send(1, 0, 0, 0, FrameKind.DATA, null, 0, 0);
            publisher.send(2, 0, 0, 0, FrameKind.EOS, null, 0, 0);
            final FrameHandler failing = (q, e, s, b, k, buffer, offset, length) -> {
                throw new IllegalStateException("handler rejects query " + q);
            };
            final Deadline deadline = Deadline.in(10_000, "the first frame");
            final SleepingIdleStrategy idle = new SleepingIdleStrategy();
            IllegalStateException thrown = null;
            while (thrown == null) {
                deadline.check();
                try {
                    idle.idle(subscriber.poll(failing, 10));
                } catch (final IllegalStateException e) {
                    thrown = e;
                }
            }
            assertThat(thrown).hasMessage("handler rejects query 1");

            final long[] next = new long[1];
            Deadline.in(10_000, "the second frame").doWorkUntil(
                    () -> subscriber.poll((q, e, s, b, k, buffer, offset, length) -> next[0] = q, 10), () -> next[0] != 0);
            assertThat(next[0]).isEqualTo(2);
        }
    }

    @Test
    void sendWithoutSubscriberFailsAfterTheConnectTimeout() {
        final TransportContext context = new TransportContext().termLength(64 * 1024).mtuLength(8192)
                .connectTimeoutNs(TimeUnit.MILLISECONDS.toNanos(200));
        try (EmbeddedDriver driver = EmbeddedDriver.launch(context);
             FramePublisher publisher = driver.addPublisher(IPC, 13)) {
            assertThatThrownBy(() -> publisher.send(77, 1, 2, 3, FrameKind.EOS, null, 0, 0))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("no subscriber connected to publication aeron:ipc stream 13 within 200 ms")
                    .hasMessageContaining("query 77")
                    .hasMessageContaining(TransportContext.CONNECT_TIMEOUT_PROP_NAME);
        }
    }

    @Test
    void sendToAConnectedReceiverThatNeverPollsFailsAfterTheStallTimeout() {
        final TransportContext context = new TransportContext().termLength(64 * 1024).mtuLength(8192)
                .stallTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300));
        try (EmbeddedDriver driver = EmbeddedDriver.launch(context);
             FrameSubscriber stuck = driver.addSubscriber(IPC, 16);
             FramePublisher publisher = driver.addPublisher(IPC, 16)) {
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[4096]);
            // The stuck receiver is connected but never polls: the term fills, then back pressure persists.
            assertThatThrownBy(() -> {
                for (int i = 0; i < 1_000; i++) {
                    publisher.send(78, 2, 0, 1, FrameKind.DATA, payload, 0, payload.capacity());
                }
            }).isInstanceOf(TransportException.class)
                    .hasMessageContaining("consumed nothing for 300 ms")
                    .hasMessageContaining("query 78")
                    .hasMessageContaining(TransportContext.STALL_TIMEOUT_PROP_NAME);
            assertThat(stuck.messages()).isZero();
        }
    }

    @Test
    void aHeartbeatRoundTripsWithItsFieldsAndPayload() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(64 * 1024).mtuLength(8192));
             FrameSubscriber subscriber = driver.addSubscriber(IPC, 17);
             FramePublisher publisher = driver.addPublisher(IPC, 17)) {
            final UnsafeBuffer pipeline = new UnsafeBuffer(new byte[4]);
            pipeline.putInt(0, 3);
            publisher.send(90, 5, 2, 7, FrameKind.HEARTBEAT, pipeline, 0, 4);
            final String[] seen = new String[1];
            final FrameHandler describe = (q, e, s, b, k, buffer, offset, length) ->
                    seen[0] = q + " " + e + " " + s + " " + b + " " + k + " " + length + " " + buffer.getInt(offset);
            Deadline.in(10_000, "the heartbeat").doWorkUntil(() -> subscriber.poll(describe, 10),
                    () -> seen[0] != null);
            assertThat(seen[0]).isEqualTo("90 5 2 7 HEARTBEAT 4 3");
        }
    }

    @Test
    void trySendMakesOneAttemptAndReportsWhetherTheFrameWentOut() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(64 * 1024).mtuLength(8192));
             FramePublisher publisher = driver.addPublisher(IPC, 18)) {
            assertThat(publisher.trySend(91, 1, 0, 0, FrameKind.HEARTBEAT, null, 0, 0))
                    .as("no subscriber: nothing to wait for, and nothing sent").isFalse();
            assertThat(publisher.messages()).isZero();

            try (FrameSubscriber stuck = driver.addSubscriber(IPC, 18)) {
                // Connected, the publication still needs the driver to open its window before a frame goes out.
                Deadline.in(10_000, "a heartbeat to go out").doWorkUntil(() -> 0,
                        () -> publisher.trySend(91, 1, 0, 0, FrameKind.HEARTBEAT, null, 0, 0));
                // The subscriber never polls: the publication window fills and trySend refuses at once.
                final UnsafeBuffer payload = new UnsafeBuffer(new byte[4096]);
                while (publisher.trySend(91, 1, 0, 0, FrameKind.DATA, payload, 0, payload.capacity())) {
                    assertThat(publisher.messages()).as("frames accepted by a 64 KiB term nobody reads").isLessThan(64);
                }
                while (publisher.trySend(91, 1, 0, 0, FrameKind.HEARTBEAT, null, 0, 0)) {
                    assertThat(publisher.messages()).as("frames accepted by a 64 KiB term nobody reads")
                            .isLessThan(1024);
                }
                final long sent = publisher.messages();
                assertThat(publisher.trySend(91, 1, 0, 0, FrameKind.HEARTBEAT, null, 0, 0)).isFalse();
                assertThat(publisher.messages()).isEqualTo(sent);
                assertThat(publisher.backPressureRetries()).as("a refused attempt is not a retry").isZero();
                assertThat(stuck.messages()).isZero();
            }
        }
    }

    @Test
    void aSendHeldUpByBackPressureRunsItsWorkOnEachRetry() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(64 * 1024).mtuLength(8192));
             FrameSubscriber subscriber = driver.addSubscriber(IPC, 19);
             FramePublisher publisher = driver.addPublisher(IPC, 19)) {
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[4096]);
            publisher.send(92, 1, 0, 0, FrameKind.DATA, payload, 0, payload.capacity());
            while (publisher.trySend(92, 1, 0, 0, FrameKind.DATA, payload, 0, payload.capacity())) {
                assertThat(publisher.messages()).as("frames accepted by a 64 KiB term nobody reads").isLessThan(64);
            }
            // The full term holds the send back until the work it does while waiting reads from the subscriber.
            final int[] runs = new int[1];
            final FrameHandler ignore = (q, e, s, b, k, buffer, offset, length) -> {
            };
            // The first send may itself have retried, while the new publication's limit caught up with its subscriber.
            final long retriesBefore = publisher.backPressureRetries();
            publisher.send(92, 1, 0, 0, FrameKind.EOS, null, 0, 0, () -> {
                runs[0]++;
                subscriber.poll(ignore, 1);
            });
            assertThat(runs[0]).isPositive();
            assertThat(publisher.backPressureRetries() - retriesBefore).isEqualTo(runs[0]);
        }
    }

    @Test
    void trySendOnAClosedPublisherFailsAtOnce() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(64 * 1024).mtuLength(8192))) {
            final FramePublisher publisher = driver.addPublisher(IPC, 20);
            publisher.close();

            assertThatThrownBy(() -> publisher.trySend(1, 1, 1, 1, FrameKind.HEARTBEAT, null, 0, 0))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("publication aeron:ipc stream 20 is closed");
        }
    }

    @Test
    void sendOnAClosedPublisherFailsAtOnce() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(64 * 1024).mtuLength(8192))) {
            final FramePublisher publisher = driver.addPublisher(IPC, 15);
            publisher.close();

            assertThatThrownBy(() -> publisher.send(1, 1, 1, 1, FrameKind.DATA, null, 0, 0))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("publication aeron:ipc stream 15 is closed");
        }
    }

    @Test
    void frameLargerThanTheMaxMessageIsRejectedNamingBothLengths() {
        try (EmbeddedDriver driver = EmbeddedDriver.launch(new TransportContext().termLength(64 * 1024).mtuLength(8192));
             FramePublisher publisher = driver.addPublisher(IPC, 14)) {
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[8192]);

            assertThatThrownBy(() -> publisher.send(5, 6, 0, 9, FrameKind.DATA, payload, 0, 8192))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("frame of " + FrameHeader.LENGTH + " + 8192 bytes")
                    .hasMessageContaining("exceeds the max message length 8192 of publication aeron:ipc stream 14")
                    .hasMessageContaining(TransportContext.TERM_LENGTH_PROP_NAME);
            assertThat(publisher.messages()).isZero();
        }
    }

    private static void offer(final Publication publication, final DirectBuffer buffer, final int length) {
        final Deadline deadline = Deadline.in(10_000, "offer on " + publication.channel());
        final SleepingIdleStrategy idle = new SleepingIdleStrategy();
        while (publication.offer(buffer, 0, length) < 0) {
            deadline.check();
            idle.idle();
        }
    }

    private static void assertPollFails(final FrameSubscriber subscriber, final String fault) {
        final Deadline deadline = Deadline.in(10_000, "a malformed frame");
        final SleepingIdleStrategy idle = new SleepingIdleStrategy();
        final FrameHandler unexpected = (q, e, s, b, k, buffer, offset, length) -> {
            throw new AssertionError("a malformed message was delivered as frame of query " + q);
        };
        while (true) {
            deadline.check();
            try {
                idle.idle(subscriber.poll(unexpected, 1));
            } catch (final MalformedFrameException e) {
                assertThat(e).hasMessageContaining("malformed frame on subscription aeron:ipc stream 12 from session")
                        .hasMessageContaining(fault);
                return;
            }
        }
    }

    /** Sizes from 0 to max, log-uniform so small and large frames both abound, with the edges included. */
    static int[] sizes(final int frames, final int maxPayload, final int mtu, final SplittableRandom random) {
        final int[] sizes = new int[frames];
        final int[] edges = {0, 1, maxPayload, mtu - 64, mtu - 32, mtu, maxPayload - 1};
        for (int i = 0; i < frames; i++) {
            if (i < edges.length) {
                sizes[i] = Math.max(0, Math.min(maxPayload, edges[i]));
            } else {
                final double logSize = random.nextDouble() * Math.log(maxPayload + 1.0);
                sizes[i] = (int) Math.min(maxPayload, Math.exp(logSize) - 1);
            }
        }
        return sizes;
    }

    static UnsafeBuffer randomBytes(final int length, final long seed) {
        final byte[] bytes = new byte[length];
        new java.util.Random(seed).nextBytes(bytes);
        final UnsafeBuffer buffer = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(length));
        buffer.putBytes(0, bytes);
        return buffer;
    }

    private static Thread startSender(final FramePublisher publisher, final ExpectedFrames expected, final int frames) {
        final Thread sender = new Thread(() -> {
            try {
                for (int i = 0; i < frames; i++) {
                    publisher.send(expected.queryId(i), expected.exchangeId(i), expected.senderCn(i), i,
                            expected.kind(i), expected.source, expected.payloadOffset(i), expected.sizes[i]);
                }
                expected.backPressureRetries = publisher.backPressureRetries();
            } catch (final Throwable t) {
                expected.failure.compareAndSet(null, t);
            }
        }, "frame-sender");
        sender.start();
        return sender;
    }

    private static void stop(final Thread sender) throws InterruptedException {
        if (sender.isAlive()) {
            sender.interrupt();
            sender.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    /** What frame i must hold, and the checking handler that counts frames as they arrive. */
    static final class ExpectedFrames implements FrameHandler {
        final int[] sizes;
        final UnsafeBuffer source;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        int received;
        volatile long backPressureRetries;

        ExpectedFrames(final int[] sizes, final UnsafeBuffer source) {
            this.sizes = sizes;
            this.source = source;
        }

        long queryId(final int i) {
            return 1_000_000_000_000L + i * 31L;
        }

        int exchangeId(final int i) {
            return i % 7;
        }

        int senderCn(final int i) {
            return i % 5;
        }

        FrameKind kind(final int i) {
            return FrameKind.values()[i % 3];
        }

        int payloadOffset(final int i) {
            return (int) ((i * 7919L) % (source.capacity() - sizes[i] + 1));
        }

        long totalBytes() {
            long total = 0;
            for (final int size : sizes) {
                total += size;
            }
            return total;
        }

        @Override
        public void onFrame(final long queryId, final int exchangeId, final int senderCn, final int bucket,
                final FrameKind kind, final DirectBuffer buffer, final int offset, final int length) {
            final int i = received;
            if (i >= sizes.length) {
                throw new AssertionError("frame " + i + " arrived, only " + sizes.length + " were sent");
            }
            if (bucket != i || queryId != queryId(i) || exchangeId != exchangeId(i) || senderCn != senderCn(i)
                    || kind != kind(i) || length != sizes[i]) {
                throw new AssertionError("frame " + i + " arrived as bucket " + bucket + " query " + queryId
                        + " exchange " + exchangeId + " CN " + senderCn + " " + kind + " length " + length);
            }
            final int sourceOffset = payloadOffset(i);
            int at = 0;
            for (; at + Long.BYTES <= length; at += Long.BYTES) {
                if (buffer.getLong(offset + at) != source.getLong(sourceOffset + at)) {
                    throw new AssertionError("frame " + i + " differs in the 8 bytes at " + at + " of " + length);
                }
            }
            for (; at < length; at++) {
                if (buffer.getByte(offset + at) != source.getByte(sourceOffset + at)) {
                    throw new AssertionError("frame " + i + " differs at byte " + at + " of " + length);
                }
            }
            received = i + 1;
        }
    }
}
