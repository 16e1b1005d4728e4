package io.sluice.transport;

import io.aeron.DirectBufferVector;
import io.aeron.Publication;
import io.aeron.logbuffer.BufferClaim;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sends frames (header + payload) on one Aeron publication, the same way over {@code aeron:ipc}
 * and {@code aeron:udp}.
 *
 * <p>{@link #send} never drops: back pressure and admin actions are retried with the idle
 * strategy; a publication with no subscriber fails after the connect timeout, a closed one or one
 * past its max position fails at once. A frame that fits one Aeron fragment is written in place with
 * {@code tryClaim}; a larger one is offered as a header and a payload vector and fragmented by
 * Aeron. A sender that waits in {@link #send} can do other work on each retry (tell its other
 * receivers it is alive); {@link #trySend} makes one attempt and reports whether the frame went out,
 * for frames worth sending only when they need no wait. No allocation per message. Single-threaded:
 * one publisher per sending thread. Several publishers, on several threads, may send on one
 * concurrent publication ({@code Aeron.addPublication}), each made with {@link #sharing} so that
 * closing it leaves the publication open for the others; each frame is written whole, and the
 * frames of one publisher stay in order.
 *
 * <p>With a sealing {@link FrameSealer} (a cluster with a secret) every frame is sealed by this
 * publisher's own {@link FrameCipher}: a frame that fits one fragment is encrypted straight from the
 * payload into the claimed log space; a larger one into this publisher's buffer, once per frame however
 * often back pressure makes it retry, and that is offered.
 */
public final class FramePublisher implements AutoCloseable {
    private static final Runnable NO_WORK_WHILE_WAITING = () -> {
    };

    private final Publication publication;
    private final boolean ownsPublication;
    private final IdleStrategy idleStrategy;
    private final NanoClock clock;
    private final long connectTimeoutNs;
    private final long stallTimeoutNs;
    private final int maxClaimLength;
    private final FrameSealer sealer;
    private final SecretKeySpec key;
    private final FrameCipher cipher;
    private final BufferClaim bufferClaim = new BufferClaim();
    private final UnsafeBuffer headerBuffer = new UnsafeBuffer(new byte[FrameHeader.LENGTH]);
    private final DirectBufferVector payloadVector = new DirectBufferVector();
    private final DirectBufferVector[] vectors = {new DirectBufferVector(headerBuffer, 0, FrameHeader.LENGTH),
            payloadVector};
    /** A large frame sealed, kept while back pressure makes the send retry; on the heap, where GCM is fastest. */
    private final UnsafeBuffer sealed = new UnsafeBuffer(new byte[0]);
    private final DirectBufferVector sealedVector = new DirectBufferVector();
    private final DirectBufferVector[] sealedVectors = {new DirectBufferVector(headerBuffer, 0, FrameHeader.LENGTH),
            sealedVector};
    /**
     * Whether {@link #sealed} and the header buffer hold the frame the current send offers; cleared when
     * a send ends, so a send nested in another's wait (a heartbeat) makes the outer one seal again.
     */
    private boolean sealedPending;

    private long messages;
    private long bytes;
    private long backPressureRetries;

    /**
     * A publisher over an open publication, which it then owns and closes, with the default stall
     * timeout.
     *
     * @param connectTimeoutNs how long {@link #send} waits for a subscriber to be connected
     */
    public FramePublisher(final Publication publication, final IdleStrategy idleStrategy, final NanoClock clock,
            final long connectTimeoutNs) {
        this(publication, idleStrategy, clock, connectTimeoutNs, TransportContext.STALL_TIMEOUT_DEFAULT_NS);
    }

    /**
     * A publisher over an open publication, which it then owns and closes.
     *
     * @param connectTimeoutNs how long {@link #send} waits for a subscriber to be connected
     * @param stallTimeoutNs   how long {@link #send} retries back pressure from a connected receiver
     *                         that makes no progress before it fails (a stuck CN must not hang the query)
     */
    public FramePublisher(final Publication publication, final IdleStrategy idleStrategy, final NanoClock clock,
            final long connectTimeoutNs, final long stallTimeoutNs) {
        this(publication, true, idleStrategy, clock, connectTimeoutNs, stallTimeoutNs, FrameSealer.plain());
    }

    /**
     * A publisher over an open publication, which it then owns and closes, numbering and sealing frames
     * with {@code sealer}.
     */
    public FramePublisher(final Publication publication, final IdleStrategy idleStrategy, final NanoClock clock,
            final long connectTimeoutNs, final long stallTimeoutNs, final FrameSealer sealer) {
        this(publication, true, idleStrategy, clock, connectTimeoutNs, stallTimeoutNs, sealer);
    }

    private FramePublisher(final Publication publication, final boolean ownsPublication,
            final IdleStrategy idleStrategy, final NanoClock clock, final long connectTimeoutNs,
            final long stallTimeoutNs, final FrameSealer sealer) {
        this.publication = publication;
        this.ownsPublication = ownsPublication;
        this.idleStrategy = idleStrategy;
        this.clock = clock;
        this.connectTimeoutNs = connectTimeoutNs;
        this.stallTimeoutNs = stallTimeoutNs;
        this.maxClaimLength = publication.maxPayloadLength();
        this.sealer = sealer;
        this.key = sealer.key();
        this.cipher = key == null ? null : new FrameCipher();
    }

    /**
     * A publisher over a publication that others send on too (a concurrent one, from
     * {@code Aeron.addPublication}): {@link #close} leaves it open, its owner closes it. Counters are this
     * publisher's own.
     *
     * @param connectTimeoutNs how long {@link #send} waits for a subscriber to be connected
     * @param stallTimeoutNs   how long {@link #send} retries back pressure from a connected receiver
     *                         that makes no progress before it fails
     */
    public static FramePublisher sharing(final Publication publication, final IdleStrategy idleStrategy,
            final NanoClock clock, final long connectTimeoutNs, final long stallTimeoutNs) {
        return sharing(publication, idleStrategy, clock, connectTimeoutNs, stallTimeoutNs, FrameSealer.plain());
    }

    /**
     * As {@link #sharing(Publication, IdleStrategy, NanoClock, long, long)}, numbering and sealing frames
     * with {@code sealer}, which every publisher sharing the publication shares.
     */
    public static FramePublisher sharing(final Publication publication, final IdleStrategy idleStrategy,
            final NanoClock clock, final long connectTimeoutNs, final long stallTimeoutNs, final FrameSealer sealer) {
        return new FramePublisher(publication, false, idleStrategy, clock, connectTimeoutNs, stallTimeoutNs, sealer);
    }

    /**
     * Sends one frame, retrying until it is in the publication's log.
     *
     * @param payload holds the payload; may be null when {@code length} is zero
     * @return the publication position after the frame
     * @throws IllegalArgumentException when the frame exceeds the publication's max message length
     * @throws TransportException       when no subscriber connects in time, or the publication is
     *                                  closed or past its max position
     */
    public long send(final long queryId, final int exchangeId, final int senderCn, final int bucket,
            final FrameKind kind, final DirectBuffer payload, final int offset, final int length) {
        return send(queryId, exchangeId, senderCn, bucket, kind, payload, offset, length, NO_WORK_WHILE_WAITING);
    }

    /**
     * Sends one frame like {@link #send(long, int, int, int, FrameKind, DirectBuffer, int, int)}, running
     * {@code whileWaiting} before each idle of a retry: a sender held up here can still tell its other
     * receivers it is alive. {@code whileWaiting} runs on this thread and must not use this publisher.
     */
    public long send(final long queryId, final int exchangeId, final int senderCn, final int bucket,
            final FrameKind kind, final DirectBuffer payload, final int offset, final int length,
            final Runnable whileWaiting) {
        final int frameLength = checkFrame(queryId, exchangeId, bucket, payload, offset, length);
        sealedPending = false;
        try {
            return retry(queryId, exchangeId, senderCn, bucket, kind, payload, offset, length, frameLength,
                    whileWaiting);
        } finally {
            sealedPending = false;
        }
    }

    private long retry(final long queryId, final int exchangeId, final int senderCn, final int bucket,
            final FrameKind kind, final DirectBuffer payload, final int offset, final int length, final int frameLength,
            final Runnable whileWaiting) {
        long notConnectedSinceNs = 0;
        boolean waitingToConnect = false;
        long backPressuredSinceNs = 0;
        boolean backPressured = false;
        while (true) {
            final long result = offerOnce(queryId, exchangeId, senderCn, bucket, kind, payload, offset, length,
                    frameLength);
            if (result > 0) {
                idleStrategy.reset();
                return result;
            }
            if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION) {
                backPressureRetries++;
                final long nowNs = clock.nanoTime();
                if (!backPressured) {
                    backPressured = true;
                    backPressuredSinceNs = nowNs;
                } else if (nowNs - backPressuredSinceNs > stallTimeoutNs) {
                    throw new TransportException("the receiver of " + describe() + " consumed nothing for "
                            + TimeUnit.NANOSECONDS.toMillis(stallTimeoutNs) + " ms while sending query " + queryId
                            + " exchange " + exchangeId + " bucket " + bucket + ": the receiving CN is stuck or"
                            + " overloaded; check it, or raise " + TransportContext.STALL_TIMEOUT_PROP_NAME);
                }
            } else if (result == Publication.NOT_CONNECTED) {
                final long nowNs = clock.nanoTime();
                if (!waitingToConnect) {
                    waitingToConnect = true;
                    notConnectedSinceNs = nowNs;
                } else if (nowNs - notConnectedSinceNs > connectTimeoutNs) {
                    throw new TransportException("no subscriber connected to " + describe() + " within "
                            + TimeUnit.NANOSECONDS.toMillis(connectTimeoutNs) + " ms while sending query " + queryId
                            + " exchange " + exchangeId + " bucket " + bucket + ": check that the receiving CN is"
                            + " running and subscribed to this channel and stream, or raise "
                            + TransportContext.CONNECT_TIMEOUT_PROP_NAME);
                }
            } else {
                throw refused(result, queryId, exchangeId);
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new TransportException("interrupted while sending query " + queryId + " exchange " + exchangeId
                        + " on " + describe());
            }
            whileWaiting.run();
            idleStrategy.idle();
        }
    }

    /**
     * Makes one attempt to send a frame, without waiting: for frames worth sending only when they can
     * go at once, such as a {@link FrameKind#HEARTBEAT}.
     *
     * @param payload holds the payload; may be null when {@code length} is zero
     * @return whether the frame is in the publication's log; false on back pressure, an admin action,
     *         or no subscriber connected
     * @throws IllegalArgumentException when the frame exceeds the publication's max message length
     * @throws TransportException       when the publication is closed or past its max position
     */
    public boolean trySend(final long queryId, final int exchangeId, final int senderCn, final int bucket,
            final FrameKind kind, final DirectBuffer payload, final int offset, final int length) {
        final int frameLength = checkFrame(queryId, exchangeId, bucket, payload, offset, length);
        sealedPending = false;
        final long result;
        try {
            result = offerOnce(queryId, exchangeId, senderCn, bucket, kind, payload, offset, length, frameLength);
        } finally {
            sealedPending = false;
        }
        if (result > 0) {
            return true;
        }
        if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION
                || result == Publication.NOT_CONNECTED) {
            return false;
        }
        throw refused(result, queryId, exchangeId);
    }

    /**
     * One {@code tryClaim} (a frame that fits one fragment, written in place) or one vectored
     * {@code offer} (a larger one, fragmented by Aeron), counting the frame when it went out.
     *
     * @return the publication position after the frame, or Aeron's negative refusal
     */
    private long offerOnce(final long queryId, final int exchangeId, final int senderCn, final int bucket,
            final FrameKind kind, final DirectBuffer payload, final int offset, final int length,
            final int frameLength) {
        final long result;
        if (frameLength <= maxClaimLength) {
            result = publication.tryClaim(frameLength, bufferClaim);
            if (result > 0) {
                final MutableDirectBuffer buffer = bufferClaim.buffer();
                final int at = bufferClaim.offset();
                try {
                    write(buffer, at, queryId, exchangeId, senderCn, bucket, kind, payload, offset, length);
                } catch (final RuntimeException e) {
                    bufferClaim.abort();
                    throw e;
                }
                bufferClaim.commit();
            }
        } else if (cipher == null) {
            FrameHeader.encode(headerBuffer, 0, queryId, exchangeId, senderCn, bucket, kind, length,
                    sealer.keyId(), sealer.nextSequence());
            payloadVector.reset(payload, offset, length);
            result = publication.offer(vectors);
        } else {
            if (!sealedPending) {
                final int sealedLength = frameLength - FrameHeader.LENGTH;
                if (sealed.capacity() < sealedLength) {
                    sealed.wrap(new byte[sealedLength]);
                }
                FrameHeader.encode(headerBuffer, 0, queryId, exchangeId, senderCn, bucket, kind, length,
                        sealer.keyId(), sealer.nextSequence(), FrameHeader.FLAG_SEALED);
                cipher.seal(key, headerBuffer, 0, payload, offset, length, sealed, 0);
                sealedVector.reset(sealed, 0, sealedLength);
                sealedPending = true;
            }
            result = publication.offer(sealedVectors);
            if (result > 0) {
                sealedPending = false;
            }
        }
        if (result > 0) {
            messages++;
            bytes += length;
        }
        return result;
    }

    /** Writes a whole frame, sealed or in clear text, at {@code at} of {@code buffer}. */
    private void write(final MutableDirectBuffer buffer, final int at, final long queryId, final int exchangeId,
            final int senderCn, final int bucket, final FrameKind kind, final DirectBuffer payload, final int offset,
            final int length) {
        if (cipher == null) {
            FrameHeader.encode(buffer, at, queryId, exchangeId, senderCn, bucket, kind, length, sealer.keyId(),
                    sealer.nextSequence());
            if (length > 0) {
                buffer.putBytes(at + FrameHeader.LENGTH, payload, offset, length);
            }
        } else {
            FrameHeader.encode(buffer, at, queryId, exchangeId, senderCn, bucket, kind, length, sealer.keyId(),
                    sealer.nextSequence(), FrameHeader.FLAG_SEALED);
            cipher.seal(key, buffer, at, payload, offset, length, buffer, at + FrameHeader.LENGTH);
        }
    }

    /** The failure for a refusal that no retry can cure. */
    private TransportException refused(final long result, final long queryId, final int exchangeId) {
        if (result == Publication.CLOSED) {
            return new TransportException(describe() + " is closed (query " + queryId + " exchange " + exchangeId
                    + "): its publisher or the media driver was closed");
        }
        if (result == Publication.MAX_POSITION_EXCEEDED) {
            return new TransportException(describe() + " has reached its max position (term length "
                    + publication.termBufferLength() + "): open a new publication, or raise "
                    + TransportContext.TERM_LENGTH_PROP_NAME);
        }
        return new TransportException(describe() + " refused a frame with unknown result " + result);
    }

    /** Checks the frame fits the publication and the payload its buffer, returning the frame length. */
    private int checkFrame(final long queryId, final int exchangeId, final int bucket, final DirectBuffer payload,
            final int offset, final int length) {
        final int maxMessageLength = publication.maxMessageLength();
        if (length < 0 || length > maxPayloadLength()) {
            throw new IllegalArgumentException("frame of " + FrameHeader.LENGTH + " + " + length + " bytes"
                    + (cipher == null || length < 0 ? "" : " (" + (FrameCipher.sealedLength(length) - length)
                    + " more sealed)") + " (query " + queryId + " exchange " + exchangeId + " bucket " + bucket
                    + ") exceeds the max message length " + maxMessageLength + " of " + describe()
                    + ": split the payload, or raise " + TransportContext.TERM_LENGTH_PROP_NAME
                    + " (max message = term length / 8, at most 16 MiB)");
        }
        if (length > 0) {
            payload.boundsCheck(offset, length);
        }
        return FrameHeader.LENGTH + (cipher == null ? length : (int) FrameCipher.sealedLength(length));
    }

    private String describe() {
        return "publication " + publication.channel() + " stream " + publication.streamId();
    }

    /** Largest payload one frame may carry on this publication. */
    public int maxPayloadLength() {
        final int room = publication.maxMessageLength() - FrameHeader.LENGTH;
        return cipher == null ? room : FrameCipher.maxPayloadLength(room);
    }

    /** Whether a subscriber is connected now. */
    public boolean isConnected() {
        return publication.isConnected();
    }

    public String channel() {
        return publication.channel();
    }

    public int streamId() {
        return publication.streamId();
    }

    /** Frames sent so far. Read on the sending thread. */
    public long messages() {
        return messages;
    }

    /** Payload bytes sent so far (headers not counted). Read on the sending thread. */
    public long bytes() {
        return bytes;
    }

    /** Offers refused by back pressure or an admin action and retried. Read on the sending thread. */
    public long backPressureRetries() {
        return backPressureRetries;
    }

    /** Closes the publication, unless it was only shared ({@link #sharing}). */
    @Override
    public void close() {
        if (ownsPublication) {
            CloseHelper.close(publication);
        }
    }
}
