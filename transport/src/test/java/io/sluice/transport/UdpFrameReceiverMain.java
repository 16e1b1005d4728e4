package io.sluice.transport;

import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The far side of {@link UdpTwoProcessTest}, run in its own JVM with its own driver: receives
 * {@code count} frames on {@code aeron:udp?endpoint=127.0.0.1:<dataPort>}, replies with one EOS frame
 * carrying (frames, checksum) to {@code 127.0.0.1:<replyPort>}, then waits for one last frame telling
 * it the reply arrived before it exits. Exit code 0 on success, 2 on a timeout.
 */
public final class UdpFrameReceiverMain {
    static final int DATA_STREAM = 1001;
    static final int REPLY_STREAM = 1002;
    static final long TIMEOUT_MS = 60_000;
    /** First line of output, naming the driver directory so that a killed receiver's one can be removed. */
    static final String DIRECTORY_LINE = "driver directory: ";

    private UdpFrameReceiverMain() {
    }

    public static void main(final String[] args) {
        final int dataPort = Integer.parseInt(args[0]);
        final int replyPort = Integer.parseInt(args[1]);
        final int count = Integer.parseInt(args[2]);
        final TransportContext context = new TransportContext().connectTimeoutNs(TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS));
        try (EmbeddedDriver driver = EmbeddedDriver.launch(context);
             FrameSubscriber subscriber = driver.addSubscriber(udp(dataPort), DATA_STREAM);
             FramePublisher reply = driver.addPublisher(udp(replyPort), REPLY_STREAM)) {
            System.out.println(DIRECTORY_LINE + driver.directory());
            System.out.flush();
            final FrameChecksum checksum = new FrameChecksum(context.termLength() / 8);
            final Deadline deadline = Deadline.in(TIMEOUT_MS, count + " frames on " + subscriber.channel());
            deadline.doWorkUntil(() -> subscriber.poll(checksum, 16), () -> checksum.frames() == count);

            final UnsafeBuffer answer = new UnsafeBuffer(new byte[2 * Long.BYTES]);
            answer.putLong(0, checksum.frames());
            answer.putLong(Long.BYTES, checksum.value());
            reply.send(-1, 0, 0, 0, FrameKind.EOS, answer, 0, answer.capacity());
            System.out.println("received " + checksum.frames() + " frames, checksum " + Long.toHexString(checksum.value()));

            final boolean[] done = new boolean[1];
            final FrameHandler onDone = (q, e, s, b, k, buffer, offset, length) -> done[0] = true;
            Deadline.in(TIMEOUT_MS, "the sender's last frame").doWorkUntil(() -> subscriber.poll(onDone, 16), () -> done[0]);
        } catch (final AssertionError e) {
            e.printStackTrace();
            System.exit(2);
        }
    }

    static String udp(final int port) {
        return "aeron:udp?endpoint=127.0.0.1:" + port;
    }
}
