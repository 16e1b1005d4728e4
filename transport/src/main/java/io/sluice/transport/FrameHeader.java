package io.sluice.transport;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the 64-byte header that starts every frame, followed by the payload bytes: magic
 * "SLCF", version, kind, query id, exchange id, sender CN, target bucket, payload length, the sender's
 * incarnation, a sequence number and an authentication tag (see the constants for the offsets; the
 * layout drawn and explained: {@code transport/README.md}). All fields little-endian.
 *
 * <p>{@link #wrap} validates a received frame before any field is read, so a malformed message fails
 * with a {@link MalformedFrameException} naming the fault instead of reading past its end. One instance
 * is reused for every frame: it is valid only until the next wrap.
 */
public final class FrameHeader {
    /** "SLCF" read as a little-endian int. */
    public static final int MAGIC = 0x46434C53;
    /** 3: frames carry their sender's incarnation, a sequence number and an authentication tag. */
    public static final short VERSION = 3;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int KIND_OFFSET = 6;
    public static final int QUERY_ID_OFFSET = 8;
    public static final int EXCHANGE_ID_OFFSET = 16;
    public static final int SENDER_CN_OFFSET = 20;
    public static final int BUCKET_OFFSET = 24;
    public static final int PAYLOAD_LENGTH_OFFSET = 28;
    public static final int SENDER_INCARNATION_OFFSET = 32;
    public static final int SEQUENCE_OFFSET = 40;
    public static final int TAG_OFFSET = 48;
    /** Bytes of header before the payload. */
    public static final int LENGTH = TAG_OFFSET + MessageAuthenticator.TAG_LENGTH;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private DirectBuffer buffer;
    private int offset;
    private FrameKind kind;

    /**
     * Writes a header at {@code offset} with no sender incarnation, sequence or tag; the payload goes at
     * {@code offset + LENGTH}.
     */
    public static void encode(final MutableDirectBuffer buffer, final int offset, final long queryId,
            final int exchangeId, final int senderCn, final int bucket, final FrameKind kind, final int payloadLength) {
        encode(buffer, offset, queryId, exchangeId, senderCn, bucket, kind, payloadLength, 0, 0);
    }

    /**
     * Writes a header at {@code offset} with a zero tag (sign it once the payload is in place); the
     * payload goes at {@code offset + LENGTH}.
     */
    public static void encode(final MutableDirectBuffer buffer, final int offset, final long queryId,
            final int exchangeId, final int senderCn, final int bucket, final FrameKind kind, final int payloadLength,
            final long senderIncarnation, final long sequence) {
        buffer.putInt(offset + MAGIC_OFFSET, MAGIC, ORDER);
        buffer.putShort(offset + VERSION_OFFSET, VERSION, ORDER);
        buffer.putByte(offset + KIND_OFFSET, kind.code());
        buffer.putByte(offset + KIND_OFFSET + 1, (byte) 0);
        buffer.putLong(offset + QUERY_ID_OFFSET, queryId, ORDER);
        buffer.putInt(offset + EXCHANGE_ID_OFFSET, exchangeId, ORDER);
        buffer.putInt(offset + SENDER_CN_OFFSET, senderCn, ORDER);
        buffer.putInt(offset + BUCKET_OFFSET, bucket, ORDER);
        buffer.putInt(offset + PAYLOAD_LENGTH_OFFSET, payloadLength, ORDER);
        buffer.putLong(offset + SENDER_INCARNATION_OFFSET, senderIncarnation, ORDER);
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence, ORDER);
        buffer.setMemory(offset + TAG_OFFSET, MessageAuthenticator.TAG_LENGTH, (byte) 0);
    }

    /**
     * Wraps a received frame of {@code length} bytes after checking magic, version, kind and that
     * the payload length is exactly what follows the header.
     *
     * @return this, for reading the fields
     * @throws MalformedFrameException naming what is wrong
     */
    public FrameHeader wrap(final DirectBuffer buffer, final int offset, final int length) {
        this.buffer = null;
        if (length < LENGTH) {
            throw new MalformedFrameException("truncated frame: " + length + " bytes, the header alone needs "
                    + LENGTH);
        }
        final int magic = buffer.getInt(offset + MAGIC_OFFSET, ORDER);
        if (magic != MAGIC) {
            throw new MalformedFrameException("bad magic 0x" + Integer.toHexString(magic) + ", expected 0x"
                    + Integer.toHexString(MAGIC) + ": not a Sluice frame (is another application on this stream?)");
        }
        final short version = buffer.getShort(offset + VERSION_OFFSET, ORDER);
        if (version != VERSION) {
            throw new MalformedFrameException("frame version " + version + ", this build reads version " + VERSION
                    + ": run the same Sluice version on every CN");
        }
        final byte code = buffer.getByte(offset + KIND_OFFSET);
        final FrameKind kind = FrameKind.fromCode(code);
        if (kind == null) {
            throw new MalformedFrameException("unknown frame kind code " + code);
        }
        final int payloadLength = buffer.getInt(offset + PAYLOAD_LENGTH_OFFSET, ORDER);
        if (payloadLength != length - LENGTH) {
            throw new MalformedFrameException("payload length " + payloadLength + " in the header, but the message has "
                    + (length - LENGTH) + " bytes after the " + LENGTH + "-byte header");
        }
        this.buffer = buffer;
        this.offset = offset;
        this.kind = kind;
        return this;
    }

    /**
     * Wraps a message only far enough to read who sent it and where it goes: it has a whole header, the
     * magic and this version. Kind and payload length are not checked ({@link #kind()} is null); use it
     * to attribute a message {@link #wrap} refused.
     *
     * @return this, or null when not even the header fields can be trusted
     */
    public FrameHeader wrapAddress(final DirectBuffer buffer, final int offset, final int length) {
        this.buffer = null;
        if (length < LENGTH || buffer.getInt(offset + MAGIC_OFFSET, ORDER) != MAGIC
                || buffer.getShort(offset + VERSION_OFFSET, ORDER) != VERSION) {
            return null;
        }
        this.buffer = buffer;
        this.offset = offset;
        this.kind = null;
        return this;
    }

    public long queryId() {
        return buffer.getLong(offset + QUERY_ID_OFFSET, ORDER);
    }

    public int exchangeId() {
        return buffer.getInt(offset + EXCHANGE_ID_OFFSET, ORDER);
    }

    public int senderCn() {
        return buffer.getInt(offset + SENDER_CN_OFFSET, ORDER);
    }

    public int bucket() {
        return buffer.getInt(offset + BUCKET_OFFSET, ORDER);
    }

    public FrameKind kind() {
        return kind;
    }

    public int payloadLength() {
        return buffer.getInt(offset + PAYLOAD_LENGTH_OFFSET, ORDER);
    }

    /** The sending process's incarnation, 0 when it gave none. */
    public long senderIncarnation() {
        return buffer.getLong(offset + SENDER_INCARNATION_OFFSET, ORDER);
    }

    /** The frame's number from its sender to this receiver, from 1; 0 when it gave none. */
    public long sequence() {
        return buffer.getLong(offset + SEQUENCE_OFFSET, ORDER);
    }

    /** Offset of the payload in the wrapped buffer. */
    public int payloadOffset() {
        return offset + LENGTH;
    }
}
