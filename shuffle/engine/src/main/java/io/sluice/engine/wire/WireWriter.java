package io.sluice.engine.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * Appends values to a growing buffer in the layout {@link WireReader} reads: fixed-width values
 * little-endian, booleans as one byte (0 or 1), strings as an int byte length followed by their
 * UTF-8 bytes, byte arrays as an int length followed by the bytes. {@link #reset} makes it ready
 * for the next message without giving its memory back. Not thread-safe.
 */
public final class WireWriter {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final ExpandableArrayBuffer buffer;
    private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private int length;

    /** A writer with a small initial buffer that grows as needed. */
    public WireWriter() {
        this(256);
    }

    /** A writer whose buffer starts with room for {@code initialCapacity} bytes. */
    public WireWriter(final int initialCapacity) {
        buffer = new ExpandableArrayBuffer(initialCapacity);
    }

    /** Discards what was written; the buffer is kept for the next message. */
    public WireWriter reset() {
        length = 0;
        return this;
    }

    /** Appends one byte. */
    public WireWriter writeByte(final byte value) {
        buffer.putByte(length, value);
        length += Byte.BYTES;
        return this;
    }

    /** Appends a boolean as one byte, 1 for true and 0 for false. */
    public WireWriter writeBoolean(final boolean value) {
        return writeByte(value ? (byte) 1 : (byte) 0);
    }

    /** Appends a short, little-endian. */
    public WireWriter writeShort(final short value) {
        buffer.putShort(length, value, LE);
        length += Short.BYTES;
        return this;
    }

    /** Appends an int, little-endian. */
    public WireWriter writeInt(final int value) {
        buffer.putInt(length, value, LE);
        length += Integer.BYTES;
        return this;
    }

    /** Appends a long, little-endian. */
    public WireWriter writeLong(final long value) {
        buffer.putLong(length, value, LE);
        length += Long.BYTES;
        return this;
    }

    /**
     * Appends a string as its UTF-8 byte length (an int) and the bytes. A string that is not
     * well-formed UTF-16 (an unpaired surrogate) is refused rather than written with a replacement
     * character, so what is read back is always what was written.
     */
    public WireWriter writeString(final String value) {
        if (value == null) {
            throw new IllegalArgumentException("cannot write a null string: write a presence flag before optional strings");
        }
        final ByteBuffer bytes;
        try {
            bytes = utf8.encode(CharBuffer.wrap(value));
        } catch (final CharacterCodingException e) {
            throw new IllegalArgumentException("string '" + value + "' is not well-formed UTF-16 (an unpaired"
                    + " surrogate) and has no UTF-8 encoding", e);
        }
        final int n = bytes.remaining();
        writeInt(n);
        buffer.putBytes(length, bytes, bytes.position(), n);
        length += n;
        return this;
    }

    /** Appends a byte array as its length (an int) and the bytes. */
    public WireWriter writeBytes(final byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("cannot write a null byte array: write a presence flag before optional arrays");
        }
        writeInt(value.length);
        buffer.putBytes(length, value);
        length += value.length;
        return this;
    }

    /** Bytes written since the last {@link #reset}. */
    public int length() {
        return length;
    }

    /** The buffer holding the bytes written, in {@code [0, length())}; valid until the next write or reset. */
    public DirectBuffer buffer() {
        return buffer;
    }

    /** A copy of the bytes written. */
    public byte[] toByteArray() {
        final byte[] copy = new byte[length];
        buffer.getBytes(0, copy);
        return copy;
    }
}
