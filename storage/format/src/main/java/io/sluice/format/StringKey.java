package io.sluice.format;

import java.nio.charset.StandardCharsets;

/**
 * Order-preserving 64-bit keys for strings: the first 8 bytes, big-endian, zero-padded, compared
 * unsigned. {@code a <= b} implies {@code key(a) <= key(b)}, so zonemaps and range boundaries
 * built on keys never exclude a matching string; strings sharing a prefix share a key.
 */
public final class StringKey {
    private StringKey() {
    }

    /**
     * Key of bytes {@code [offset, offset + length)}.
     *
     * @param bytes  the array holding the string
     * @param offset where the string starts in {@code bytes}
     * @param length the string's length in bytes; only the first 8 count
     * @return the prefix key, compared unsigned
     */
    public static long of(final byte[] bytes, final int offset, final int length) {
        long key = 0;
        final int n = Math.min(8, length);
        for (int i = 0; i < n; i++) {
            key |= (bytes[offset + i] & 0xFFL) << (56 - 8 * i);
        }
        return key;
    }

    /**
     * Key of a string's UTF-8 bytes.
     *
     * @param s the string, not null
     * @return the key of its first 8 UTF-8 bytes, compared unsigned
     */
    public static long of(final String s) {
        final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        return of(bytes, 0, bytes.length);
    }

    /**
     * The prefix a key stands for, trailing zero bytes removed (for display).
     *
     * @param key a key made by {@link #of}
     * @return up to 8 bytes decoded as UTF-8; a character cut at byte 8 shows as a replacement
     */
    public static String prefix(final long key) {
        final byte[] bytes = new byte[8];
        int n = 0;
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (key >>> (56 - 8 * i));
            if (bytes[i] != 0) {
                n = i + 1;
            }
        }
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }
}
