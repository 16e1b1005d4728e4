package io.sluice.perf.mysql;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds one packet's payload in a buffer that grows as needed and is reused from packet to packet
 * ({@link #reset}), so that writing the rows of a result allocates nothing per row for integers and
 * strings held as bytes.
 */
final class PacketWriter {
    private byte[] buffer = new byte[256];
    private int length;

    PacketWriter reset() {
        length = 0;
        return this;
    }

    byte[] buffer() {
        return buffer;
    }

    int length() {
        return length;
    }

    private void ensure(final int more) {
        if (length + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
        }
    }

    PacketWriter int1(final int v) {
        ensure(1);
        buffer[length++] = (byte) v;
        return this;
    }

    PacketWriter int2(final int v) {
        ensure(2);
        buffer[length++] = (byte) v;
        buffer[length++] = (byte) (v >>> 8);
        return this;
    }

    PacketWriter int3(final int v) {
        ensure(3);
        buffer[length++] = (byte) v;
        buffer[length++] = (byte) (v >>> 8);
        buffer[length++] = (byte) (v >>> 16);
        return this;
    }

    PacketWriter int4(final long v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            buffer[length++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    PacketWriter int8(final long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buffer[length++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    PacketWriter lenenc(final long v) {
        if (v < 0xFB) {
            return int1((int) v);
        }
        if (v < 1 << 16) {
            return int1(0xFC).int2((int) v);
        }
        if (v < 1 << 24) {
            return int1(0xFD).int3((int) v);
        }
        return int1(0xFE).int8(v);
    }

    PacketWriter bytes(final byte[] bytes) {
        return bytes(bytes, 0, bytes.length);
    }

    PacketWriter bytes(final byte[] bytes, final int offset, final int count) {
        ensure(count);
        System.arraycopy(bytes, offset, buffer, length, count);
        length += count;
        return this;
    }

    PacketWriter zeros(final int count) {
        ensure(count);
        Arrays.fill(buffer, length, length + count, (byte) 0);
        length += count;
        return this;
    }

    /** A NUL-terminated UTF-8 string. */
    PacketWriter nulString(final String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8)).int1(0);
    }

    /** A length-encoded UTF-8 string. */
    PacketWriter lenencString(final String s) {
        final byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return lenenc(b.length).bytes(b);
    }

    PacketWriter lenencBytes(final byte[] b, final int offset, final int count) {
        return lenenc(count).bytes(b, offset, count);
    }

    /** A length-encoded decimal integer, written as ASCII digits without a String. */
    PacketWriter lenencLong(final long v) {
        if (v == Long.MIN_VALUE) {
            return lenencString(Long.toString(v));
        }
        final int digits = digits(Math.abs(v)) + (v < 0 ? 1 : 0);
        int1(digits);
        ensure(digits);
        long rest = Math.abs(v);
        for (int i = length + digits - 1; i >= length + (v < 0 ? 1 : 0); i--) {
            buffer[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        if (v < 0) {
            buffer[length] = '-';
        }
        length += digits;
        return this;
    }

    private static int digits(final long v) {
        int d = 1;
        long bound = 10;
        while (d < 19 && v >= bound) {
            d++;
            bound *= 10;
        }
        return d;
    }

    /** Sets bits in a byte written before (a binary row's null bitmap). */
    PacketWriter orByte(final int index, final int bits) {
        buffer[index] |= (byte) bits;
        return this;
    }

    /** The NULL marker of a text row's cell. */
    PacketWriter nullCell() {
        return int1(0xFB);
    }
}
