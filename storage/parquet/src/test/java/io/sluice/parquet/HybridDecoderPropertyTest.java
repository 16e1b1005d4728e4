package io.sluice.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * The bulk hybrid decoder reads back exactly what parquet-java's encoder wrote, for every bit width and any
 * mix of repeated runs and packed values; bytes that end early are an error, never made-up values.
 */
class HybridDecoderPropertyTest {
    private static byte[] encode(final int[] values, final int bitWidth) throws Exception {
        final RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 20,
                new HeapByteBufferAllocator());
        for (final int v : values) {
            encoder.writeInt(v);
        }
        return encoder.toBytes().toByteArray();
    }

    private static int[] values(final int[] raw, final int bitWidth, final int runLength) {
        final long mask = bitWidth == 32 ? 0xFFFFFFFFL : (1L << bitWidth) - 1;
        final int[] out = new int[raw.length];
        for (int i = 0; i < raw.length; i++) {
            // Runs of equal values make the encoder write repeated runs between packed ones.
            out[i] = (int) (raw[(i / runLength) * runLength] & mask);
        }
        return out;
    }

    @Property(tries = 300)
    void decodesWhatTheEncoderWrote(@ForAll @Size(max = 3000) final int[] raw,
                                    @ForAll @IntRange(min = 0, max = 32) final int bitWidth,
                                    @ForAll @IntRange(min = 1, max = 40) final int runLength) throws Exception {
        final int[] expected = values(raw, bitWidth, runLength);
        final int[] decoded = new int[expected.length];
        HybridDecoder.decode(ByteBuffer.wrap(encode(expected, bitWidth)), bitWidth, decoded, expected.length);
        assertThat(decoded).isEqualTo(expected);
    }

    @Property(tries = 100)
    void bytesThatEndEarlyAreAnError(@ForAll @Size(min = 20, max = 500) final int[] raw,
                                     @ForAll @IntRange(min = 1, max = 32) final int bitWidth) throws Exception {
        final int[] expected = values(raw, bitWidth, 1);
        final byte[] encoded = encode(expected, bitWidth);
        final byte[] cut = Arrays.copyOf(encoded, encoded.length / 2);
        assertThatThrownBy(() -> HybridDecoder.decode(ByteBuffer.wrap(cut), bitWidth, new int[expected.length],
                expected.length)).isInstanceOfAny(ParquetDecodingException.class,
                java.nio.BufferUnderflowException.class, IndexOutOfBoundsException.class);
    }
}
