package io.sluice.perf.mysql;

import java.nio.charset.StandardCharsets;

/**
 * Reads the fields of one packet's payload (little-endian integers, length-encoded integers and
 * strings, NUL-terminated strings), checking every length against the payload: a field that runs past
 * the end is a {@link ProtocolException} naming it, never a read of another packet's bytes.
 */
final class PacketReader {
    private final byte[] payload;
    private int position;

    PacketReader(final byte[] payload) {
        this.payload = payload;
    }

    /** Bytes not read yet. */
    int remaining() {
        return payload.length - position;
    }

    int position() {
        return position;
    }

    private void need(final int bytes, final String field) {
        if (bytes < 0 || bytes > remaining()) {
            throw new ProtocolException(field + " needs " + bytes + " bytes at offset " + position + " but the packet"
                    + " has " + remaining() + " left");
        }
    }

    int int1(final String field) {
        need(1, field);
        return payload[position++] & 0xFF;
    }

    int int2(final String field) {
        need(2, field);
        final int v = (payload[position] & 0xFF) | (payload[position + 1] & 0xFF) << 8;
        position += 2;
        return v;
    }

    long int4(final String field) {
        need(4, field);
        long v = 0;
        for (int i = 3; i >= 0; i--) {
            v = v << 8 | (payload[position + i] & 0xFF);
        }
        position += 4;
        return v;
    }

    long int8(final String field) {
        need(8, field);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (payload[position + i] & 0xFF);
        }
        position += 8;
        return v;
    }

    /** A length-encoded integer; -1 for the NULL marker 0xFB. */
    long lenenc(final String field) {
        final int first = int1(field);
        if (first < 0xFB) {
            return first;
        }
        return switch (first) {
            case 0xFB -> -1;
            case 0xFC -> int2(field);
            case 0xFD -> {
                need(3, field);
                final long v = (payload[position] & 0xFF) | (payload[position + 1] & 0xFF) << 8
                        | (payload[position + 2] & 0xFF) << 16;
                position += 3;
                yield v;
            }
            case 0xFE -> int8(field);
            default -> throw new ProtocolException(field + ": 0xFF does not start a length-encoded integer");
        };
    }

    byte[] bytes(final int length, final String field) {
        need(length, field);
        final byte[] out = new byte[length];
        System.arraycopy(payload, position, out, 0, length);
        position += length;
        return out;
    }

    void skip(final int length, final String field) {
        need(length, field);
        position += length;
    }

    /** A length-encoded string's bytes. */
    byte[] lenencBytes(final String field) {
        final long length = lenenc(field);
        if (length < 0 || length > remaining()) {
            throw new ProtocolException(field + " claims " + length + " bytes but the packet has " + remaining()
                    + " left");
        }
        return bytes((int) length, field);
    }

    /** A NUL-terminated string (UTF-8); the rest of the packet when no NUL follows. */
    String nulString(final String field) {
        int end = position;
        while (end < payload.length && payload[end] != 0) {
            end++;
        }
        final String s = new String(payload, position, end - position, StandardCharsets.UTF_8);
        position = Math.min(payload.length, end + 1);
        return s;
    }

    /** The bytes up to the end of the packet. */
    byte[] rest() {
        return bytes(remaining(), "rest");
    }
}
