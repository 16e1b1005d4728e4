package io.sluice.format;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

/**
 * A fast 64-bit checksum over a buffer range, four independent lanes of
 * {@code h = rotl(h + word * P, 31)}. Each step is a bijection of the lane state for a fixed
 * word, so any change confined to one word (a flipped byte) always changes the result; the four
 * lanes keep the loop at memory speed instead of multiply latency.
 */
public final class BlockChecksum {
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    /** Seed of an unchained checksum. */
    public static final long SEED = 0x27D4EB2F165667C5L;

    private BlockChecksum() {
    }

    /**
     * Checksum of {@code [index, index + length)} of a buffer, started from {@code seed}.
     *
     * @param buffer the bytes, on or off the heap
     * @param index  where the range starts in {@code buffer}
     * @param length bytes in the range, 0 or more
     * @param seed   {@link #SEED}, or an earlier checksum to chain ranges into one
     * @return the 64-bit checksum
     * @throws IndexOutOfBoundsException when the range does not lie inside the buffer
     */
    public static long compute(final DirectBuffer buffer, final int index, final int length, final long seed) {
        buffer.boundsCheck(index, length);
        final byte[] base = buffer.byteArray();
        final long address = buffer.addressOffset() + index;
        long h0 = seed;
        long h1 = seed + P1;
        long h2 = seed ^ P2;
        long h3 = seed - P3;
        int i = 0;
        for (final int end = length - 31; i < end; i += 32) {
            h0 = Long.rotateLeft(h0 + UnsafeApi.getLong(base, address + i) * P1, 31);
            h1 = Long.rotateLeft(h1 + UnsafeApi.getLong(base, address + i + 8) * P1, 31);
            h2 = Long.rotateLeft(h2 + UnsafeApi.getLong(base, address + i + 16) * P1, 31);
            h3 = Long.rotateLeft(h3 + UnsafeApi.getLong(base, address + i + 24) * P1, 31);
        }
        for (; i + 8 <= length; i += 8) {
            h0 = Long.rotateLeft(h0 + UnsafeApi.getLong(base, address + i) * P1, 31);
        }
        for (; i < length; i++) {
            h1 = Long.rotateLeft(h1 + (UnsafeApi.getByte(base, address + i) & 0xFFL) * P2, 23);
        }
        return mix(h0) ^ Long.rotateLeft(mix(h1), 16) ^ Long.rotateLeft(mix(h2), 32)
                ^ Long.rotateLeft(mix(h3), 48) ^ mix(length * P3);
    }

    private static long mix(long h) {
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }
}
