package io.sluice.dispatch.control;

import io.aeron.Publication;
import java.util.concurrent.TimeUnit;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Sends control messages to one process on one Aeron publication: {@link #offer} makes one attempt
 * (for a thread that must never wait, such as a control loop, which keeps what did not go out for its
 * next round), {@link #send} retries until a deadline. Thread-safe: each message is encoded and
 * offered under this publisher's lock.
 */
public final class ControlPublisher implements AutoCloseable {
    private final Publication publication;
    private final ControlCodec codec = new ControlCodec();
    private final IdleStrategy idle = new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MILLISECONDS.toNanos(1));

    /** A publisher over a publication, which it then owns and closes. */
    public ControlPublisher(final Publication publication) {
        this.publication = publication;
    }

    /**
     * One attempt to send a message.
     *
     * @return whether it is in the publication's log; false on back pressure, an admin action, or no
     *         subscriber connected
     * @throws IllegalArgumentException when the message exceeds the publication's largest message
     * @throws ControlLinkException     when the publication is closed
     */
    public synchronized boolean offer(final ControlMessage message) {
        final int length = codec.encode(message);
        if (length > publication.maxMessageLength()) {
            throw new IllegalArgumentException(message.getClass().getSimpleName() + " of " + length + " bytes exceeds"
                    + " the largest message " + publication.maxMessageLength() + " of " + describe()
                    + ": raise sluice.transport.term.length (largest message = term length / 8)");
        }
        final long result = publication.offer(codec.buffer(), 0, length);
        if (result > 0) {
            return true;
        }
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
            throw new ControlLinkException(describe() + " is closed (" + result + "): nothing more can be sent on it");
        }
        return false;
    }

    /**
     * Sends a message, retrying until it is in the log or {@code timeoutNs} passed.
     *
     * @throws ControlLinkException when it could not be sent in time, naming the destination
     */
    public synchronized void send(final ControlMessage message, final long timeoutNs) {
        final long deadline = System.nanoTime() + timeoutNs;
        while (!offer(message)) {
            if (System.nanoTime() - deadline > 0) {
                throw new ControlLinkException("could not send " + message.getClass().getSimpleName() + " to "
                        + describe() + " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms: "
                        + (publication.isConnected() ? "it does not keep up" : "nobody receives there (is it running?)"));
            }
            idle.idle();
        }
        idle.reset();
    }

    /** The largest message this publication takes. */
    public int maxMessageLength() {
        return publication.maxMessageLength();
    }

    /** Whether a subscriber is connected now. */
    public boolean isConnected() {
        return publication.isConnected();
    }

    /** Where this publisher sends, for messages. */
    public String describe() {
        return publication.channel() + " stream " + publication.streamId();
    }

    @Override
    public void close() {
        CloseHelper.close(publication);
    }
}
