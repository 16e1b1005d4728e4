package io.sluice.shuffle;

import java.util.Arrays;

/**
 * The heavy keys of one exchange as an open-addressed set of zonemap keys: a membership test per row with
 * no boxing and no allocation, one multiply and (almost always) one probe. Keys are zonemap keys
 * ({@link io.sluice.format.ColumnVector#key}), so equal join keys on both sides of a join test alike.
 */
public final class HeavyKeySet {
    /** Most keys a set takes: a plan marks a handful (no key under 1/(8 x buckets) of the rows is heavy). */
    public static final int MAX_KEYS = 4096;

    private final long[] keys;
    private final long[] slots;
    private final boolean[] used;
    private final int mask;

    private HeavyKeySet(final long[] keys) {
        this.keys = keys;
        // Mostly empty (at most one slot in eight used), so that a key that is not heavy, almost every row's,
        // usually ends its probe at the first slot: one predictable branch.
        int size = 64;
        while (size < 8 * keys.length) {
            size <<= 1;
        }
        this.slots = new long[size];
        this.used = new boolean[size];
        this.mask = size - 1;
        for (final long k : keys) {
            int s = slot(k);
            while (used[s] && slots[s] != k) {
                s = (s + 1) & mask;
            }
            used[s] = true;
            slots[s] = k;
        }
    }

    /**
     * The empty set: a join side whose per-key dispatch only drops its null keys.
     *
     * @return a set that contains no key
     */
    public static HeavyKeySet none() {
        return new HeavyKeySet(new long[0]);
    }

    /**
     * A set of the given keys.
     *
     * @param keys 1 to {@value #MAX_KEYS} distinct zonemap keys
     * @return the set
     * @throws IllegalArgumentException when there are none, too many, or a key repeats
     */
    public static HeavyKeySet of(final long... keys) {
        if (keys.length == 0 || keys.length > MAX_KEYS) {
            throw new IllegalArgumentException("a heavy-key set takes 1.." + MAX_KEYS + " keys, got " + keys.length
                    + ": use HeavyKeySet.none() when no key is heavy");
        }
        final long[] sorted = keys.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw new IllegalArgumentException("heavy key " + sorted[i] + " is listed twice: list each key once");
            }
        }
        return new HeavyKeySet(keys.clone());
    }

    /**
     * The keys, in the order given.
     *
     * @return the keys, in the order given
     */
    public long[] keys() {
        return keys.clone();
    }

    /**
     * How many keys the set holds.
     *
     * @return how many keys the set holds
     */
    public int size() {
        return keys.length;
    }

    /**
     * Whether {@code key} is one of the heavy keys.
     *
     * @param key a zonemap key
     * @return whether {@code key} is one of the heavy keys
     */
    public boolean contains(final long key) {
        int s = slot(key);
        while (used[s]) {
            if (slots[s] == key) {
                return true;
            }
            s = (s + 1) & mask;
        }
        return false;
    }

    private int slot(final long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
    }

    @Override
    public String toString() {
        return "HeavyKeySet" + Arrays.toString(keys);
    }
}
