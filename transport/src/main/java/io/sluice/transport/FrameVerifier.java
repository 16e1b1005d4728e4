package io.sluice.transport;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * Checks, before anything in a frame is acted on, that a member of the cluster made it for this
 * receiver (its tag, under the key {@link FrameSigner} derives for this receiver's address) and that
 * it was not received before ({@link ReplayGuard} over the sender's incarnation and the frame's
 * sequence). Single-threaded: one per subscription.
 */
public final class FrameVerifier {
    /** Sequence numbers remembered per sender: far more than threads sharing a publication ever reorder. */
    private static final int WINDOW = 1 << 16;
    private static final int MAX_SENDERS = 4096;

    private final MessageAuthenticator authenticator;
    private final ReplayGuard guard = new ReplayGuard(WINDOW, MAX_SENDERS);

    /** A verifier for the receiver listening on {@code channel} and {@code stream}. */
    public FrameVerifier(final ClusterSecret secret, final String channel, final int stream) {
        this.authenticator = new MessageAuthenticator(FrameSigner.receiverKey(secret, channel, stream));
    }

    /**
     * Why a frame of {@code length} bytes (a whole header at least) must be refused, or null when it may
     * be acted on: the kind of fault, a colon, and what exactly.
     */
    String refusal(final DirectBuffer buffer, final int offset, final int length) {
        if (!authenticator.verify(buffer, offset, length, offset + FrameHeader.TAG_OFFSET)) {
            return "tag does not match: not made by a member of this cluster for this receiver, or altered";
        }
        final long sender = buffer.getLong(offset + FrameHeader.SENDER_INCARNATION_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final long sequence = buffer.getLong(offset + FrameHeader.SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        return switch (guard.accept(sender, sequence)) {
            case NEW -> null;
            case REPLAYED -> "replay: frame " + sequence + " of sender " + Long.toHexString(sender) + " came before";
            case STALE -> "replay: frame " + sequence + " of sender " + Long.toHexString(sender) + " is older than the "
                    + WINDOW + " frames remembered";
            case INVALID -> "bad sequence: " + sequence + " is not a frame number";
        };
    }
}
