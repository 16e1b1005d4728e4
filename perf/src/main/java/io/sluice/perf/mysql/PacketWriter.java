package io.sluice.perf.mysql;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
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

    /**
     * A length-encoded decimal {@code unscaled / 10^scale} as text with exactly {@code scale} fractional
     * digits ({@code -0.05}, {@code 12.00}), as BigDecimal.toPlainString writes it, without allocating.
     */
    PacketWriter lenencDecimal(final long unscaled, final int scale) {
        if (scale == 0) {
            return lenencLong(unscaled);
        }
        if (unscaled == Long.MIN_VALUE) {
            return lenencString(BigDecimal.valueOf(unscaled, scale).toPlainString());
        }
        final long abs = Math.abs(unscaled);
        // At least one integer digit: 0.05 for 5 at scale 2.
        final int digits = Math.max(digits(abs), scale + 1);
        final int length = digits + 1 + (unscaled < 0 ? 1 : 0);
        int1(length);
        ensure(length);
        long rest = abs;
        int i = length + this.length - 1;
        for (int d = 0; d < digits; d++) {
            if (d == scale) {
                buffer[i--] = '.';
            }
            buffer[i--] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        if (unscaled < 0) {
            buffer[i] = '-';
        }
        this.length += length;
        return this;
    }

    /** A length-encoded date, days since 1970-01-01, as {@code yyyy-mm-dd} (years 0 to 9999), without allocating. */
    PacketWriter lenencDate(final int epochDay) {
        // Days to civil date (Howard Hinnant's algorithm), as LocalDate.ofEpochDay computes it.
        final long z = epochDay + 719468L;
        final long era = Math.floorDiv(z, 146097);
        final long doe = z - era * 146097;
        final long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        final long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        final long mp = (5 * doy + 2) / 153;
        final int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        final int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        final long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        if (year < 0 || year > 9999) {
            return lenencString(LocalDate.ofEpochDay(epochDay).toString());
        }
        int1(10);
        ensure(10);
        final byte[] b = buffer;
        final int at = length;
        b[at] = (byte) ('0' + year / 1000);
        b[at + 1] = (byte) ('0' + year / 100 % 10);
        b[at + 2] = (byte) ('0' + year / 10 % 10);
        b[at + 3] = (byte) ('0' + year % 10);
        b[at + 4] = '-';
        b[at + 5] = (byte) ('0' + month / 10);
        b[at + 6] = (byte) ('0' + month % 10);
        b[at + 7] = '-';
        b[at + 8] = (byte) ('0' + day / 10);
        b[at + 9] = (byte) ('0' + day % 10);
        length += 10;
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
