package io.sluice.engine.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;

/**
 * Reads what a {@link WireWriter} wrote, from {@code [offset, offset + length)} of a buffer and
 * never outside it. Every read first checks that its bytes are there; a string, byte array or list
 * whose claimed length exceeds the bytes left, or {@link #maxLength()}, fails before anything is
 * allocated for it. Each read names the field it reads, so a failure is a
 * {@link WireFormatException} saying which field, at which offset, and what was wrong. A
 * flyweight: {@link #wrap} points it at the next message. Not thread-safe.
 */
public final class WireReader {
    /** The longest string or byte array, and the most list items, a reader accepts unless told otherwise. */
    public static final int DEFAULT_MAX_LENGTH = 16 << 20;

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final int maxLength;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private DirectBuffer buffer;
    private int offset;
    private int length;
    private int position;

    /** A reader of {@code [offset, offset + length)} accepting lengths up to {@link #DEFAULT_MAX_LENGTH}. */
    public WireReader(final DirectBuffer buffer, final int offset, final int length) {
        this(buffer, offset, length, DEFAULT_MAX_LENGTH);
    }

    /**
     * A reader of {@code [offset, offset + length)}.
     *
     * @param maxLength the longest string or byte array, in bytes, and the most items of a list, that
     *                  a read accepts: a guard against a claimed length that fits the message but is
     *                  implausible for what the message carries
     */
    public WireReader(final DirectBuffer buffer, final int offset, final int length, final int maxLength) {
        if (maxLength < 0) {
            throw new IllegalArgumentException("maxLength must be 0 or more, got " + maxLength);
        }
        this.maxLength = maxLength;
        wrap(buffer, offset, length);
    }

    /**
     * Points this reader at another message, from its first byte.
     *
     * @throws IllegalArgumentException when the range does not lie inside the buffer: a caller's mistake, not bad input
     */
    public WireReader wrap(final DirectBuffer buffer, final int offset, final int length) {
        if (buffer == null) {
            throw new IllegalArgumentException("no buffer to read from");
        }
        if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
            throw new IllegalArgumentException("range [" + offset + ", " + offset + " + " + length
                    + ") does not lie inside a buffer of " + buffer.capacity() + " bytes");
        }
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        this.position = 0;
        return this;
    }

    /** The bytes read so far: the offset of the next read from the start of the message. */
    public int position() {
        return position;
    }

    /** The bytes not yet read. */
    public int remaining() {
        return length - position;
    }

    /** The length of the message in bytes. */
    public int length() {
        return length;
    }

    /** The longest string or byte array, and the most list items, this reader accepts. */
    public int maxLength() {
        return maxLength;
    }

    /** Reads one byte. */
    public byte readByte(final String field) {
        require(field, Byte.BYTES, "a byte");
        final byte value = buffer.getByte(offset + position);
        position += Byte.BYTES;
        return value;
    }

    /** Reads one byte as 0..255. */
    public int readUnsignedByte(final String field) {
        return readByte(field) & 0xFF;
    }

    /** Reads a boolean: a byte that must be 0 (false) or 1 (true). */
    public boolean readBoolean(final String field) {
        final int at = position;
        final byte value = readByte(field);
        if (value != 0 && value != 1) {
            throw error(field, at, "a boolean must be 0 or 1, found " + value);
        }
        return value == 1;
    }

    /** Reads a little-endian short. */
    public short readShort(final String field) {
        require(field, Short.BYTES, "a short");
        final short value = buffer.getShort(offset + position, LE);
        position += Short.BYTES;
        return value;
    }

    /** Reads a little-endian int. */
    public int readInt(final String field) {
        require(field, Integer.BYTES, "an int");
        final int value = buffer.getInt(offset + position, LE);
        position += Integer.BYTES;
        return value;
    }

    /** Reads a little-endian long. */
    public long readLong(final String field) {
        require(field, Long.BYTES, "a long");
        final long value = buffer.getLong(offset + position, LE);
        position += Long.BYTES;
        return value;
    }

    /** Reads a string: an int byte length, then that many bytes of well-formed UTF-8. */
    public String readString(final String field) {
        final int at = position;
        final byte[] bytes = readBytes(field);
        try {
            return utf8.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (final CharacterCodingException e) {
            throw error(field, at, "the " + bytes.length + " string bytes are not well-formed UTF-8", e);
        }
    }

    /** Reads a byte array: an int length, then that many bytes. */
    public byte[] readBytes(final String field) {
        final int at = position;
        final int n = readInt(field);
        if (n < 0) {
            throw error(field, at, "negative length " + n);
        }
        if (n > remaining()) {
            throw error(field, at, "length " + n + " exceeds the " + remaining() + " bytes left");
        }
        if (n > maxLength) {
            throw error(field, at, "length " + n + " exceeds the maximum of " + maxLength + " bytes");
        }
        final byte[] bytes = new byte[n];
        buffer.getBytes(offset + position, bytes);
        position += n;
        return bytes;
    }

    /**
     * Reads the item count of a list: an int that must be 0 or more, at most {@link #maxLength()},
     * and small enough that the items, each at least {@code minBytesPerItem} long, fit in the bytes
     * left. A caller may then allocate for that many items.
     */
    public int readCount(final String field, final int minBytesPerItem) {
        if (minBytesPerItem < 1) {
            throw new IllegalArgumentException("an item takes at least one byte, got minBytesPerItem=" + minBytesPerItem);
        }
        final int at = position;
        final int n = readInt(field);
        if (n < 0) {
            throw error(field, at, "negative count " + n);
        }
        if ((long) n * minBytesPerItem > remaining()) {
            throw error(field, at, "count " + n + " of items of at least " + minBytesPerItem
                    + " bytes exceeds the " + remaining() + " bytes left");
        }
        if (n > maxLength) {
            throw error(field, at, "count " + n + " exceeds the maximum of " + maxLength + " items");
        }
        return n;
    }

    /** Checks that every byte of the message was read. */
    public void expectEnd(final String field) {
        if (position != length) {
            throw error(field, position, remaining() + " bytes left over after the end of the message");
        }
    }

    /** An error about a field that starts at the current position. */
    public WireFormatException error(final String field, final String problem) {
        return error(field, position, problem, null);
    }

    /** An error about a field that starts at {@code at} (an earlier {@link #position()}). */
    public WireFormatException error(final String field, final int at, final String problem) {
        return error(field, at, problem, null);
    }

    /** An error about a field that starts at {@code at}, revealed by {@code cause}. */
    public WireFormatException error(final String field, final int at, final String problem, final Throwable cause) {
        return new WireFormatException(field, at, length, problem, cause);
    }

    private void require(final String field, final int bytes, final String what) {
        if (remaining() < bytes) {
            throw error(field, position, "truncated: " + what + " needs " + bytes + " bytes, "
                    + remaining() + " left");
        }
    }
}
