package io.sluice.engine.filter;

/**
 * The 64-bit hash a {@link SplitBlockBloomFilter} of a single integer key is filled and probed with;
 * build and probe sides, on every CN, hash the same key to the same value.
 */
public final class FilterHash {
    private FilterHash() {
    }

    /** Murmur3's 64-bit finaliser of a key. */
    public static long ofLong(final long key) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
