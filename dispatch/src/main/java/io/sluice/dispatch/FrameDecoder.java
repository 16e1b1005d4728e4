package io.sluice.dispatch;

import io.sluice.format.CorruptBlockException;
import io.sluice.shuffle.Topology;
import io.sluice.transport.FrameKind;
import io.sluice.transport.MalformedFrameException;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * Turns a frame routed to one destination into the item its inbox gets: a {@link RemoteBatch} for
 * DATA (decoded with the exchange's schema), an {@link EndOfStream}, a {@link Heartbeat}, a
 * {@link SenderFailure} for ERROR, or the {@link DispatchException} a frame that breaks the protocol
 * is (a sender that is not a remote CN of the view, one the destination does not hear in its mode,
 * a payload of the wrong length, one that does not decode). Checks come before any field is
 * trusted. One decoder per demultiplexer; not thread-safe.
 */
final class FrameDecoder {
    /** Heartbeat frames carry the sending pipeline. */
    static final int PIPELINE_PAYLOAD_LENGTH = 4;
    /** End-of-stream frames carry the sending pipeline and the DATA frames it sent to the destination. */
    static final int EOS_PAYLOAD_LENGTH = 12;
    /** Credit frames carry the count granted. */
    static final int CREDIT_PAYLOAD_LENGTH = 4;

    private final BatchCodec codec = new BatchCodec();

    /**
     * The inbox item for one frame to a destination of {@code exchange} on CN {@code receiverCn}.
     *
     * @param origin   the destination, for messages
     * @param sequence the frame's number at the destination, for messages
     */
    Object decode(final Exchange exchange, final int receiverCn, final String origin, final long sequence,
            final int senderCn, final FrameKind kind, final DirectBuffer buffer, final int offset, final int length) {
        final Topology topology = exchange.topology();
        if (senderCn < 0 || senderCn >= topology.cnCount() || senderCn == receiverCn) {
            return new DispatchException(origin + " received a " + kind + " frame from CN " + senderCn
                    + ", which is not a remote CN of topology " + topology);
        }
        if (!exchange.expects(receiverCn, senderCn)) {
            return new DispatchException(origin + " received a " + kind + " frame from CN " + senderCn
                    + ": in " + exchange.mode() + " it hears only the senders of its own CN " + receiverCn);
        }
        switch (kind) {
            case DATA:
                try {
                    return new RemoteBatch(senderCn, codec.decode(exchange.schema(), buffer, offset, length, origin,
                            sequence));
                } catch (final CorruptBlockException e) {
                    // Past the transport's checks but not the block's: damaged at the sender (its memory, or the
                    // block file a stored block was copied from), or on the way where frames are not sealed.
                    return new DispatchException(origin + " refused the DATA frame " + sequence + " from CN " + senderCn
                            + ": " + e.getMessage() + "; the rows were damaged at CN " + senderCn + " or, in a cluster"
                            + " without a secret, on the way: check CN " + senderCn
                            + "'s store with `sluice inspect --store DIR --verify`", e);
                } catch (final RuntimeException e) {
                    return new DispatchException(origin + " could not decode the DATA frame " + sequence
                            + " from CN " + senderCn + ": " + e.getMessage(), e);
                }
            case EOS:
                if (length != EOS_PAYLOAD_LENGTH) {
                    return new DispatchException(origin + " received an EOS frame of " + length + " bytes from CN "
                            + senderCn + ", expected " + EOS_PAYLOAD_LENGTH + " (the sending pipeline, its DATA frames)");
                }
                final long dataFrames = buffer.getLong(offset + 4, ByteOrder.LITTLE_ENDIAN);
                if (dataFrames < 0) {
                    return new DispatchException(origin + " received an EOS frame from CN " + senderCn
                            + " that counts " + dataFrames + " DATA frames");
                }
                return new EndOfStream(senderCn, buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN), dataFrames);
            case HEARTBEAT:
                if (length != PIPELINE_PAYLOAD_LENGTH) {
                    return new DispatchException(origin + " received a " + kind + " frame of " + length
                            + " bytes from CN " + senderCn + ", expected " + PIPELINE_PAYLOAD_LENGTH
                            + " (the sending pipeline)");
                }
                return new Heartbeat(senderCn, buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN));
            case ERROR:
                return new SenderFailure(senderCn, SenderFailure.UNKNOWN_PIPELINE,
                        buffer.getStringWithoutLengthUtf8(offset, length));
            default:
                return new DispatchException(origin + " received a frame of kind " + kind + " from CN " + senderCn
                        + ", which no destination takes");
        }
    }

    /** The inbox item for a frame whose header named this destination but that was malformed. */
    static DispatchException malformed(final String origin, final int senderCn, final MalformedFrameException fault) {
        return new DispatchException(origin + " received a malformed frame from CN " + senderCn + ": "
                + fault.getMessage(), fault);
    }
}
