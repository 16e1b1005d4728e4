package io.sluice.transport;

import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;

/**
 * Receives frames from one Aeron subscription, reassembling the ones Aeron fragmented, and hands
 * each to a {@link FrameHandler} with its payload in place.
 *
 * <p>Polled like an Agrona agent's {@code doWork}: {@link #poll} returns the fragments read, zero
 * when idle. An unfragmented frame is passed straight from the log; only fragmented ones are copied
 * into the assembler's buffer. A malformed frame fails the poll with a {@link MalformedFrameException}
 * naming the channel, stream and session; it is consumed, so the next poll goes on after it. A
 * malformed frame whose header still names query, exchange, sender and bucket goes to the handler's
 * {@link FrameHandler#onMalformedFrame} instead, which throws it unless the handler routes it. An
 * exception thrown by the handler likewise ends the poll and is thrown from it.
 *
 * <p>With a {@link FrameOpener} (a cluster with a secret), every message is first opened: it must be a
 * frame of this version that a member sealed for this receiver and that did not come before; one that
 * is not goes to {@link FrameHandler#onRejectedFrame}, is counted ({@link #rejectedFrames}) and
 * dropped, and nothing in it is trusted. The handler gets an opened frame's payload decrypted, in the
 * opener's buffer. Without an opener a sealed frame is malformed: this receiver cannot read it.
 * Single-threaded.
 */
public final class FrameSubscriber implements AutoCloseable {
    private final Subscription subscription;
    private final FragmentAssembler assembler;
    private final FrameHeader header = new FrameHeader();
    private final FrameOpener opener;
    private FrameHandler handler;
    private RuntimeException failure;
    private long messages;
    private long bytes;
    private long rejectedFrames;

    /** A subscriber over an open subscription, which it then owns and closes; frames are not verified. */
    public FrameSubscriber(final Subscription subscription) {
        this(subscription, null);
    }

    /**
     * A subscriber over an open subscription, which it then owns and closes, opening every frame with
     * {@code opener} and refusing what it refuses (null: frames in clear text, nothing checked).
     */
    public FrameSubscriber(final Subscription subscription, final FrameOpener opener) {
        this.subscription = subscription;
        this.opener = opener;
        this.assembler = new FragmentAssembler(this::onMessage);
    }

    /**
     * Reads up to {@code fragmentLimit} fragments, delivering each complete frame to {@code handler}.
     *
     * @return fragments read: zero when there was nothing to do
     * @throws MalformedFrameException when a message is not a valid frame
     */
    public int poll(final FrameHandler handler, final int fragmentLimit) {
        this.handler = handler;
        try {
            final int fragments = subscription.poll(assembler, fragmentLimit);
            if (failure != null) {
                throw failure;
            }
            return fragments;
        } finally {
            this.handler = null;
            this.failure = null;
        }
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader) {
        try {
            deliver(buffer, offset, length, aeronHeader);
        } catch (final RuntimeException e) {
            // Aeron hands a handler's exception to the client's subscriber error handler, which may only log it:
            // keep it so that poll throws it whatever that handler does.
            failure = e;
            throw e;
        }
    }

    private void deliver(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader) {
        if (opener != null) {
            final String refusal = header.wrapAddress(buffer, offset, length) == null
                    ? "not a frame: no Sluice frame header of version " + FrameHeader.VERSION
                    : opener.open(buffer, offset, length);
            if (refusal != null) {
                rejectedFrames++;
                handler.onRejectedFrame(sourceOf(aeronHeader), refusal);
                return;
            }
        }
        final FrameHeader frame;
        try {
            frame = header.wrap(buffer, offset, length);
            if (opener == null && frame.sealed()) {
                throw new MalformedFrameException("a sealed (encrypted) frame, but this receiver has no cluster secret:"
                        + " give every process of the cluster the same --secret-file (or " + ClusterSecret.FILE_ENV
                        + ")");
            }
        } catch (final MalformedFrameException e) {
            final MalformedFrameException fault = new MalformedFrameException("malformed frame on subscription "
                    + subscription.channel() + " stream " + subscription.streamId() + " from session "
                    + aeronHeader.sessionId() + " at position " + aeronHeader.position() + ": " + e.getMessage(), e);
            final FrameHeader address = header.wrapAddress(buffer, offset, length);
            if (address == null) {
                throw fault;
            }
            handler.onMalformedFrame(address.queryId(), address.exchangeId(), address.senderCn(), address.bucket(),
                    fault);
            return;
        }
        final int payloadLength = frame.payloadLength();
        messages++;
        bytes += payloadLength;
        if (opener != null) {
            handler.onFrame(frame.queryId(), frame.exchangeId(), frame.senderCn(), frame.bucket(), frame.kind(),
                    opener.plaintext(), 0, payloadLength);
        } else {
            handler.onFrame(frame.queryId(), frame.exchangeId(), frame.senderCn(), frame.bucket(), frame.kind(),
                    buffer, frame.payloadOffset(), payloadLength);
        }
    }

    private String sourceOf(final Header aeronHeader) {
        final Image image = subscription.imageBySessionId(aeronHeader.sessionId());
        return (image == null ? "an unknown sender" : image.sourceIdentity()) + " (session " + aeronHeader.sessionId()
                + ")";
    }

    /** Messages the opener refused and dropped. Read on the polling thread. */
    public long rejectedFrames() {
        return rejectedFrames;
    }

    /** Whether at least one publisher is connected. */
    public boolean isConnected() {
        return subscription.isConnected();
    }

    /** Connected publishers (Aeron images). */
    public int imageCount() {
        return subscription.imageCount();
    }

    public String channel() {
        return subscription.channel();
    }

    public int streamId() {
        return subscription.streamId();
    }

    /** Frames received so far. Read on the polling thread. */
    public long messages() {
        return messages;
    }

    /** Payload bytes received so far (headers not counted). Read on the polling thread. */
    public long bytes() {
        return bytes;
    }

    @Override
    public void close() {
        CloseHelper.close(subscription);
    }
}
