package io.sluice.parquet;

import java.nio.ByteBuffer;
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
        final int valueBytes = (bitWidth + 7) >>> 3;
        final long mask = bitWidth == 32 ? 0xFFFFFFFFL : (1L << bitWidth) - 1;
        int n = 0;
        while (n < count) {
            if (!in.hasRemaining()) {
                throw new ParquetDecodingException("the encoded values end after " + n + " of " + count);
            }
            final int header = readUnsignedVarInt(in);
            if ((header & 1) == 0) {
                final int run = header >>> 1;
                int value = 0;
                for (int i = 0; i < valueBytes; i++) {
                    value |= (in.get() & 0xFF) << (8 * i);
                }
                final int end = Math.min(count, n + run);
                for (int i = n; i < end; i++) {
                    out[i] = value;
                }
                n = end;
            } else {
                final int values = (header >>> 1) * 8;
                final int bytes = (header >>> 1) * bitWidth;
                if (bytes > in.remaining()) {
                    throw new ParquetDecodingException("a bit-packed run of " + bytes + " bytes, " + in.remaining()
                            + " left");
                }
                final int start = in.position();
                final int take = Math.min(values, count - n);
                long buffer = 0;
                int bits = 0;
                int at = start;
                for (int i = 0; i < take; i++) {
                    while (bits < bitWidth) {
                        buffer |= (in.get(at++) & 0xFFL) << bits;
                        bits += 8;
                    }
                    out[n + i] = (int) (buffer & mask);
                    buffer >>>= bitWidth;
                    bits -= bitWidth;
                }
                in.position(start + bytes);
                n += take;
            }
        }
    }

    private static int readUnsignedVarInt(final ByteBuffer in) {
        int value = 0;
        int shift = 0;
        while (true) {
            final int b = in.get() & 0xFF;
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
            shift += 7;
            if (shift > 28) {
                throw new ParquetDecodingException("a run header longer than 5 bytes");
            }
        }
    }
}
