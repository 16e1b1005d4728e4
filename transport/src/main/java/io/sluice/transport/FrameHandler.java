package io.sluice.transport;

import org.agrona.DirectBuffer;

/**
 * Receives the frames a {@link FrameSubscriber} polls: the header fields and the payload in place.
 *
 * <p>The payload {@code buffer} is a view into the subscription's log or reassembly buffer, valid
 * only during the call: copy what must outlive it.
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
}
