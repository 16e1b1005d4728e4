package io.sluice.parquet;

/** Decimals Parquet stores as big-endian two's-complement bytes, as Sluice's scaled longs and 128-bit integers. */
final class ParquetDecimals {
    private ParquetDecimals() {
    }

    /** The value of {@code length} bytes at {@code offset}, at most 8 of them significant. */
    static long toLong(final byte[] bytes, final int offset, final int length) {
        if (length == 0) {
            return 0;
        }
        long v = bytes[offset]; // sign-extends the first byte
        for (int i = 1; i < length; i++) {
            v = (v << 8) | (bytes[offset + i] & 0xFF);
        }
        return v;
    }

    /** The high 64 bits of a value of up to 16 bytes at {@code offset}. */
    static long high(final byte[] bytes, final int offset, final int length) {
        if (length <= 8) {
            return length == 0 || bytes[offset] >= 0 ? 0 : -1L;
        }
        return toLong(bytes, offset, length - 8);
    }

    /** The low 64 bits of a value of up to 16 bytes at {@code offset}. */
    static long low(final byte[] bytes, final int offset, final int length) {
        if (length <= 8) {
            return toLong(bytes, offset, length);
        }
        long v = 0;
        for (int i = length - 8; i < length; i++) {
            v = (v << 8) | (bytes[offset + i] & 0xFF);
        }
        return v;
    }
}
