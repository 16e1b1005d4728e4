package io.sluice.engine.exec;

import io.sluice.engine.filter.FilterHash;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** 64-bit hashing of keys for the hash tables of aggregation and join (no allocation). */
final class Hashing {
    private static final VarHandle BIG_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.BIG_ENDIAN);

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

    /**
     * A hash of bytes, eight at a time, each eight read as one big-endian long: string group and join keys
     * (TPC-DS Q4's customer names) hash every row, and a byte-at-a-time loop was most of their grouping time.
     */
    static long hashBytes(final byte[] bytes, final int offset, final int length) {
        long h = length;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            h = h * 0x9E3779B97F4A7C15L + (long) BIG_ENDIAN_LONGS.get(bytes, offset + i);
        }
        long tail = 0;
        for (; i < length; i++) {
            tail = (tail << 8) | (bytes[offset + i] & 0xFF);
        }
        return mix(h * 0x9E3779B97F4A7C15L + tail);
    }
}
