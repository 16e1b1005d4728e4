package io.sluice.dispatch.control;

import io.aeron.Publication;
import io.sluice.transport.MessageAuthenticator;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.agrona.CloseHelper;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Sends control messages to one process on one Aeron publication: {@link #offer} makes one attempt
 * (for a thread that must never wait, such as a control loop, which keeps what did not go out for its
 * next round), {@link #send} retries until a deadline. Each message goes with its trailer filled in:
 * this process's incarnation, the receiver's ({@link #receiver}, 0 until known), the next sequence
 * number and, with a cluster secret, its tag. Thread-safe: each message is encoded, numbered and
 * offered under this publisher's lock, so numbers enter the log in order.
 */
public final class ControlPublisher implements AutoCloseable {
    private final Publication publication;
    private final ControlAuthentication authentication;
    private final MessageAuthenticator authenticator;
    private final ControlCodec codec = new ControlCodec();
    private volatile long receiver;
    private final IdleStrategy idle = new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MILLISECONDS.toNanos(1));

    /**
     * A publisher over a publication, which it then owns and closes, signing as {@code authentication}
     * says.
     *
     * @param receiver the receiver's incarnation, or 0 while unknown
     */
    public ControlPublisher(final Publication publication, final ControlAuthentication authentication,
            final long receiver) {
        this.publication = publication;
        this.authentication = authentication;
        this.authenticator = authentication.authenticator(publication.streamId());
        this.receiver = receiver;
    }

    /** Names the receiver's incarnation in the messages sent from now on (once a challenge told it). */
    public void receiver(final long incarnation) {
        this.receiver = incarnation;
    }

    /** The receiver's incarnation these messages name, 0 while unknown. */
    public long receiver() {
        return receiver;
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
        final MutableDirectBuffer bytes = codec.mutableBuffer();
        bytes.putLong(length - ControlCodec.SENDER_FROM_END, authentication.incarnation(), ByteOrder.LITTLE_ENDIAN);
        bytes.putLong(length - ControlCodec.RECEIVER_FROM_END, receiver, ByteOrder.LITTLE_ENDIAN);
        bytes.putLong(length - ControlCodec.SEQUENCE_FROM_END, authentication.nextSequence(), ByteOrder.LITTLE_ENDIAN);
        if (authenticator != null) {
            authenticator.sign(bytes, 0, length, length - ControlCodec.TAG_FROM_END);
        }
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
