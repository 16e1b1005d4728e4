package io.sluice.parquet;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * Parquet's RLE / bit-packing hybrid encoding (definition levels and dictionary codes), decoded in bulk into
 * an {@code int[]}: parquet-java's decoder returns one value per call, which cost more than the rest of a
 * page's decoding. Runs are a ULEB128 header, then either one value repeated ({@code header >>> 1} times, in
 * {@code ceil(bitWidth / 8)} little-endian bytes) or {@code header >>> 1} groups of 8 values packed
 * {@code bitWidth} bits each, least significant bit first.
 */
final class HybridDecoder {
    private HybridDecoder() {
    }

    /**
     * Decodes {@code count} values of {@code bitWidth} bits from {@code in} (from its position to its limit)
     * into {@code out[0 .. count)}.
     *
     * @throws ParquetDecodingException when the bytes end before {@code count} values or a header is malformed
     */
    static void decode(final ByteBuffer in, final int bitWidth, final int[] out, final int count) {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new ParquetDecodingException("a run of bit width " + bitWidth + " (at most 32)");
        }
        // Pages are heap buffers: index their array directly, bounds checked against the buffer's limit.
        final ByteBuffer heap = in.hasArray() ? in : copyOf(in);
        final byte[] bytes = heap.array();
        final int base = heap.arrayOffset();
        final int limit = base + heap.limit();
        int at = base + heap.position();
        final int valueBytes = (bitWidth + 7) >>> 3;
        final long mask = bitWidth == 32 ? 0xFFFFFFFFL : (1L << bitWidth) - 1;
        int n = 0;
        while (n < count) {
            int header = 0;
            int shift = 0;
            while (true) {
                if (at >= limit) {
                    throw new ParquetDecodingException("the encoded values end after " + n + " of " + count);
                }
                final int b = bytes[at++] & 0xFF;
                header |= (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
                shift += 7;
                if (shift > 28) {
                    throw new ParquetDecodingException("a run header longer than 5 bytes");
                }
            }
            if ((header & 1) == 0) {
                if (at + valueBytes > limit) {
                    throw new ParquetDecodingException("a repeated run's value ends past the encoded bytes");
                }
                int value = 0;
                for (int i = 0; i < valueBytes; i++) {
                    value |= (bytes[at++] & 0xFF) << (8 * i);
                }
                final int end = Math.min(count, n + (header >>> 1));
                Arrays.fill(out, n, end, value);
                n = end;
            } else {
                final int groups = header >>> 1;
                final int packed = groups * bitWidth;
                if (packed > limit - at) {
                    throw new ParquetDecodingException("a bit-packed run of " + packed + " bytes, " + (limit - at)
                            + " left");
                }
                final int take = Math.min(groups * 8, count - n);
                long buffer = 0;
                int bits = 0;
                int next = at;
                for (int i = 0; i < take; i++) {
                    while (bits < bitWidth) {
                        buffer |= (bytes[next++] & 0xFFL) << bits;
                        bits += 8;
                    }
                    out[n + i] = (int) (buffer & mask);
                    buffer >>>= bitWidth;
                    bits -= bitWidth;
                }
                at += packed;
                n += take;
            }
        }
        in.position(at - base);
    }

    /**
     * Whether {@code in} holds only one repeated run of {@code value} covering at least {@code count} values (an
     * optional column's levels when no row is null), without reading past it.
     */
    static boolean isOneRun(final ByteBuffer in, final int bitWidth, final int value, final int count) {
        int at = in.position();
        int header = 0;
        int shift = 0;
        while (true) {
            if (at >= in.limit() || shift > 28) {
                return false;
            }
            final int b = in.get(at++) & 0xFF;
            header |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
        }
        if ((header & 1) != 0 || (header >>> 1) < count) {
            return false;
        }
        final int valueBytes = (bitWidth + 7) >>> 3;
        if (at + valueBytes > in.limit()) {
            return false;
        }
        int v = 0;
        for (int i = 0; i < valueBytes; i++) {
            v |= (in.get(at++) & 0xFF) << (8 * i);
        }
        return v == value;
    }

    private static ByteBuffer copyOf(final ByteBuffer in) {
        final byte[] copy = new byte[in.remaining()];
        in.duplicate().get(copy);
        return ByteBuffer.wrap(copy);
    }
}
