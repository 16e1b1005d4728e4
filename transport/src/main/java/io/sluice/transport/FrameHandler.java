package io.sluice.transport;

import org.agrona.DirectBuffer;

/**
 * Receives the frames a {@link FrameSubscriber} polls: the header fields and the payload in place.
 *
 * <p>The payload {@code buffer} is a view into the subscription's log or reassembly buffer (or, for a
 * sealed frame, the buffer its opener decrypted it into), valid only during the call: copy what must
 * outlive it. A frame whose header names its target (right magic
 * and version) but is otherwise malformed (unknown kind, wrong payload length) goes to
 * {@link #onMalformedFrame}, so that a receiver sharing one stream among many targets can fail the
 * one it was meant for.
 */
@FunctionalInterface
public interface FrameHandler {
    /**
     * One frame.
     *
     * @param queryId    query the frame belongs to
     * @param exchangeId exchange within the query
     * @param senderCn   CN that sent it
     * @param bucket     target bucket
     * @param kind       DATA, EOS, ERROR or HEARTBEAT
     * @param buffer     holds the payload; valid only during this call
     * @param offset     payload start in {@code buffer}
     * @param length     payload length in bytes (zero for an empty payload)
     */
    void onFrame(long queryId, int exchangeId, int senderCn, int bucket, FrameKind kind,
            DirectBuffer buffer, int offset, int length);

    /**
     * A frame whose header fields can be read but that is not valid: its kind is unknown or its payload
     * length disagrees with the message. Throws {@code fault} unless overridden, which ends the poll.
     *
     * @param fault names what is wrong, and the channel, stream and session it came on
     */
    default void onMalformedFrame(final long queryId, final int exchangeId, final int senderCn, final int bucket,
            final MalformedFrameException fault) {
        throw fault;
    }

    /**
     * A message the subscriber's {@link FrameOpener} refused before reading anything in it: not a
     * frame of this version, not sealed, a tag that does not match (another key, or altered), or a
     * replay. It is dropped; nothing else happens unless overridden.
     *
     * @param source where it came from (the sender's address as Aeron saw it)
     * @param reason why it was refused
     */
    default void onRejectedFrame(final String source, final String reason) {
    }
}
