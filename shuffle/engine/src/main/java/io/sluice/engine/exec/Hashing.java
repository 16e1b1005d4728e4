package io.sluice.engine.exec;

import io.sluice.engine.filter.FilterHash;

/** 64-bit hashing of keys for the hash tables of aggregation and join (no allocation). */
final class Hashing {
    private Hashing() {
    }

    /** Murmur3's 64-bit finaliser: every input bit affects every output bit. */
    static long mix(final long value) {
        return FilterHash.ofLong(value);
    }

    /** Mixes the hash of the next key column into the running hash of a row. */
    static long combine(final long running, final long next) {
        return mix(running * 31 + next);
    }

    /** A hash of bytes, eight at a time. */
    static long hashBytes(final byte[] bytes, final int offset, final int length) {
        long h = length;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            long w = 0;
            for (int b = 0; b < 8; b++) {
                w = (w << 8) | (bytes[offset + i + b] & 0xFF);
            }
            h = h * 0x9E3779B97F4A7C15L + w;
        }
        long tail = 0;
        for (; i < length; i++) {
            tail = (tail << 8) | (bytes[offset + i] & 0xFF);
        }
        return mix(h * 0x9E3779B97F4A7C15L + tail);
    }
}
