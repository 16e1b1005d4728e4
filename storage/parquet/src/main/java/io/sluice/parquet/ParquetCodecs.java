package io.sluice.parquet;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The page decompressors a Parquet read needs, without Hadoop: parquet-java's own codec factory
 * instantiates Hadoop {@code CompressionCodec} classes, so reading a Snappy, GZIP or ZSTD page through
 * it needs hadoop-common on the classpath. These call the codec libraries directly.
 */
final class ParquetCodecs implements CompressionCodecFactory {
    /** The codecs Sluice reads, as an error lists them. */
    static final String SUPPORTED = "UNCOMPRESSED, SNAPPY, GZIP, ZSTD";

    private final String file;

    /** Decompressors for the pages of {@code file}, which errors name. */
    ParquetCodecs(final String file) {
        this.file = file;
    }

    @Override
    public BytesInputDecompressor getDecompressor(final CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED -> new Decompressor(codec) {
                @Override
                byte[] decompress(final byte[] input, final int offset, final int length,
                                  final int uncompressedSize) {
                    return Arrays.copyOfRange(input, offset, offset + length);
                }
            };
            case SNAPPY -> new Decompressor(codec) {
                @Override
                byte[] decompress(final byte[] input, final int offset, final int length, final int uncompressedSize)
                        throws IOException {
                    final byte[] out = new byte[uncompressedSize];
                    final int n = Snappy.uncompress(input, offset, length, out, 0);
                    return checked(n, uncompressedSize, out);
                }
            };
            case GZIP -> new Decompressor(codec) {
                @Override
                byte[] decompress(final byte[] input, final int offset, final int length, final int uncompressedSize)
                        throws IOException {
                    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(input, offset, length))) {
                        final byte[] out = in.readAllBytes();
                        return checked(out.length, uncompressedSize, out);
                    }
                }
            };
            case ZSTD -> new Decompressor(codec) {
                @Override
                byte[] decompress(final byte[] input, final int offset, final int length, final int uncompressedSize)
                        throws IOException {
                    final byte[] out = new byte[uncompressedSize];
                    final long n = Zstd.decompressByteArray(out, 0, uncompressedSize, input, offset, length);
                    if (Zstd.isError(n)) {
                        throw new IOException("ZSTD page does not decompress: " + Zstd.getErrorName(n));
                    }
                    return checked((int) n, uncompressedSize, out);
                }
            };
            default -> throw new UnsupportedCodecException("parquet file " + file + " has pages compressed with "
                    + codec + ", which Sluice does not read: it reads " + SUPPORTED
                    + "; rewrite the file with one of them (DuckDB: COPY ... (FORMAT PARQUET, COMPRESSION zstd))");
        };
    }

    @Override
    public BytesInputCompressor getCompressor(final CompressionCodecName codec) {
        throw new UnsupportedOperationException("Sluice reads Parquet files, it does not write them");
    }

    @Override
    public void release() {
        // Nothing pooled: each decompression allocates its output.
    }

    private static byte[] checked(final int n, final int expected, final byte[] out) throws IOException {
        if (n != expected) {
            throw new IOException("a page decompressed to " + n + " bytes, its header says " + expected);
        }
        return out;
    }

    /** A codec that needs no state: decompresses a page's bytes on the heap. */
    private abstract static class Decompressor implements BytesInputDecompressor {
        private final CompressionCodecName codec;

        Decompressor(final CompressionCodecName codec) {
            this.codec = codec;
        }

        /** Decompresses {@code input[offset, offset + length)}, which it must not keep. */
        abstract byte[] decompress(byte[] input, int offset, int length, int uncompressedSize) throws IOException;

        @Override
        public BytesInput decompress(final BytesInput bytes, final int uncompressedSize) throws IOException {
            try {
                // A page read into a heap buffer is decompressed where it lies, without copying it first.
                final ByteBuffer in = bytes.toByteBuffer();
                if (in.hasArray()) {
                    return BytesInput.from(decompress(in.array(), in.arrayOffset() + in.position(), in.remaining(),
                            uncompressedSize));
                }
                final byte[] copy = bytes.toByteArray();
                return BytesInput.from(decompress(copy, 0, copy.length, uncompressedSize));
            } catch (final IOException | RuntimeException e) {
                throw new IOException(codec + " page does not decompress (" + e.getMessage() + ")", e);
            }
        }

        @Override
        public void decompress(final ByteBuffer input, final int compressedSize, final ByteBuffer output,
                               final int uncompressedSize) throws IOException {
            final byte[] in = new byte[compressedSize];
            input.get(in);
            output.put(decompress(in, 0, compressedSize, uncompressedSize));
        }

        @Override
        public void release() {
            // Stateless.
        }
    }
}
