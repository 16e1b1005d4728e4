package io.sluice.shuffle;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.util.Arrays;

/**
 * Hash bucketing over one or more key columns: a well-mixed 64-bit hash of the key (integers of
 * either width hash alike, strings over all their bytes), reduced to {@code [0, bucketCount)} by
 * multiply-shift instead of a modulo. Needs no statistics, evens out skew, never colocates.
 * Thread-safe: one instance may serve every pipeline of a join (multi-column keys fold their
 * hashes in a per-thread scratch array).
 */
public final class HashBucketFunction implements BucketFunction {
    private static final long M1 = 0xBF58476D1CE4E5B9L;
    private static final long M2 = 0x94D049BB133111EBL;
    private static final long SEED = 0x9E3779B97F4A7C15L;
    private final int bucketCount;
    private final TypeKind[] keyKinds;
    private final boolean integerKey;
    /** Per-thread running hashes of multi-column keys, one entry per row of a batch. */
    private static final ThreadLocal<long[]> SCRATCH = ThreadLocal.withInitial(() -> new long[Block.MAX_ROWS]);

    /**
     * A hash function over key columns of the given kinds.
     *
     * @param bucketCount number of buckets, 1..{@link Topology#MAX_BUCKETS}
     * @param keyKinds the kinds of the key columns, in order (they decide whether a zonemap can
     *                 place a whole batch: only a single integer-like key can)
     * @throws IllegalArgumentException when there is no key kind or the bucket count is out of range
     */
    public HashBucketFunction(final int bucketCount, final TypeKind... keyKinds) {
        if (keyKinds.length == 0) {
            throw new IllegalArgumentException("a hash shuffle needs at least one key column");
        }
        this.keyKinds = keyKinds.clone();
        this.integerKey = keyKinds.length == 1 && keyKinds[0] != TypeKind.STRING;
        if (bucketCount < 1 || bucketCount > Topology.MAX_BUCKETS) {
            throw new IllegalArgumentException("bucket count " + bucketCount + " is not valid: use 1.." + Topology.MAX_BUCKETS);
        }
        this.bucketCount = bucketCount;
    }

    /**
     * The mixed 64-bit hash of an integer key (SplitMix64's finalizer).
     *
     * @param key the key; an INT32 key widened to long hashes like the same INT64 key
     * @return the hash, all 64 bits mixed
     */
    public static long hash(final long key) {
        long z = key + SEED;
        z = (z ^ (z >>> 30)) * M1;
        z = (z ^ (z >>> 27)) * M2;
        return z ^ (z >>> 31);
    }

    /**
     * Hash of a string's bytes.
     *
     * @param bytes  the array holding the string
     * @param offset where the string starts in {@code bytes}
     * @param length the string's length in bytes; every byte counts
     * @return the hash, all 64 bits mixed
     */
    public static long hash(final byte[] bytes, final int offset, final int length) {
        long h = SEED ^ length;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            long word = 0;
            for (int b = 0; b < 8; b++) {
                word |= (bytes[offset + i + b] & 0xFFL) << (8 * b);
            }
            h = hash(h ^ word);
        }
        long tail = 0;
        for (int b = 0; i < length; i++, b++) {
            tail |= (bytes[offset + i] & 0xFFL) << (8 * b);
        }
        return hash(h ^ tail ^ ((long) length << 56));
    }

    /**
     * The bucket of a hash.
     *
     * @param hash a hash from {@link #hash(long)} or {@link #hash(byte[], int, int)}
     * @return {@code [0, bucketCount)}, from the hash's high 32 bits by multiply-shift
     */
    public int bucketOfHash(final long hash) {
        return (int) (((hash >>> 32) * bucketCount) >>> 32);
    }

    /**
     * The bucket of one integer key.
     *
     * @param key a non-null integer key
     * @return its bucket, 0 to {@link #bucketCount()} - 1
     */
    public int bucket(final long key) {
        return bucketOfHash(hash(key));
    }

    @Override
    public int bucketCount() {
        return bucketCount;
    }

    @Override
    public void buckets(final ColumnVector[] keys, final int rowCount, final int[] out) {
        if (keys.length != keyKinds.length) {
            throw new IllegalArgumentException("this hash shuffle has " + keyKinds.length + " key columns, got "
                    + keys.length);
        }
        for (int k = 0; k < keys.length; k++) {
            checkKind(k, keys[k].type().kind());
        }
        if (keys.length == 1 && (keys[0] instanceof LongVector || keys[0] instanceof IntVector) && keys[0].nulls() == null) {
            single(keys[0], rowCount, out);
            return;
        }
        long[] h = SCRATCH.get();
        if (h.length < rowCount) {
            h = new long[rowCount];
            SCRATCH.set(h);
        }
        Arrays.fill(h, 0, rowCount, 0);
        for (final ColumnVector key : keys) {
            combine(key, rowCount, h);
        }
        for (int i = 0; i < rowCount; i++) {
            out[i] = bucketOfHash(h[i]);
        }
        for (final ColumnVector key : keys) {
            final long[] nulls = key.nulls();
            if (nulls != null) {
                for (int i = 0; i < rowCount; i++) {
                    if ((nulls[i >>> 6] & (1L << i)) != 0) {
                        out[i] = NULL_BUCKET;
                    }
                }
            }
        }
    }

    /**
     * {@inheritDoc} A single integer key without nulls goes to its bucket's list in the same pass that
     * hashes it; other keys are bucketed first, then grouped.
     */
    @Override
    public void group(final ColumnVector[] keys, final int rowCount, final RowsByBucket out) {
        checkGrouping(out);
        if (keys.length == 1 && keyKinds.length == 1 && keys[0].nulls() == null && out.takesLists()
                && (keys[0] instanceof LongVector || keys[0] instanceof IntVector)) {
            checkKind(0, keys[0].type().kind());
            final int[] cursors = out.beginLists(rowCount);
            final int[] lists = out.lists();
            final long n = bucketCount;
            if (keys[0] instanceof LongVector lv) {
                final long[] values = lv.values();
                for (int i = 0; i < rowCount; i++) {
                    lists[cursors[(int) (((hash(values[i]) >>> 32) * n) >>> 32)]++] = i;
                }
            } else {
                final int[] values = ((IntVector) keys[0]).values();
                for (int i = 0; i < rowCount; i++) {
                    lists[cursors[(int) (((hash(values[i]) >>> 32) * n) >>> 32)]++] = i;
                }
            }
            return;
        }
        BucketFunction.super.group(keys, rowCount, out);
    }

    private void single(final ColumnVector key, final int rowCount, final int[] out) {
        if (key instanceof LongVector lv) {
            final long[] values = lv.values();
            for (int i = 0; i < rowCount; i++) {
                out[i] = bucketOfHash(hash(values[i]));
            }
        } else {
            final int[] values = ((IntVector) key).values();
            for (int i = 0; i < rowCount; i++) {
                out[i] = bucketOfHash(hash(values[i]));
            }
        }
    }

    /**
     * The hash of a 128-bit value: that of the long when it fits one, so that equal values hash
     * alike whether a column holds them as longs or as 128-bit decimals.
     */
    private static long hash128(final long high, final long low) {
        return high == (low >> 63) ? hash(low) : hash(hash(high) * 31 + hash(low));
    }

    /** Folds one key column into per-row running hashes: {@code h = hash(h * 31 + hash(key))} after the first. */
    private static void combine(final ColumnVector key, final int rowCount, final long[] h) {
        if (key instanceof LongVector lv) {
            final long[] values = lv.values();
            for (int i = 0; i < rowCount; i++) {
                h[i] = fold(h[i], hash(values[i]));
            }
        } else if (key instanceof IntVector iv) {
            final int[] values = iv.values();
            for (int i = 0; i < rowCount; i++) {
                h[i] = fold(h[i], hash(values[i]));
            }
        } else if (key instanceof Decimal128Vector dv) {
            final long[] high = dv.high();
            final long[] low = dv.low();
            for (int i = 0; i < rowCount; i++) {
                h[i] = fold(h[i], hash128(high[i], low[i]));
            }
        } else {
            final StringVector sv = (StringVector) key;
            final byte[] bytes = sv.bytes();
            for (int i = 0; i < rowCount; i++) {
                h[i] = fold(h[i], hash(bytes, sv.offset(i), sv.length(i)));
            }
        }
    }

    private static long fold(final long running, final long next) {
        return running == 0 ? next : hash(running * 31 + next);
    }

    @Override
    public void checkKeyKinds(final TypeKind... kinds) {
        if (kinds.length != keyKinds.length) {
            throw new IllegalArgumentException("this hash shuffle was declared with " + keyKinds.length
                    + " key columns, got " + kinds.length + ": build it with the key columns' kinds");
        }
        for (int k = 0; k < kinds.length; k++) {
            checkKind(k, kinds[k]);
        }
    }

    private void checkKind(final int keyIndex, final TypeKind actual) {
        if (!BucketFunction.compatibleKinds(keyKinds[keyIndex], actual)) {
            throw new IllegalArgumentException("key column " + keyIndex + " is " + actual + " but this hash shuffle declared "
                    + keyKinds[keyIndex] + ": declare the key kinds the columns have (INT32 and INT64 mix)");
        }
    }

    @Override
    public int bucketOfRange(final ZoneMap keyRange) {
        if (!keyRange.hasValues()) {
            return keyRange.rowCount() == 0 ? -1 : NULL_BUCKET;
        }
        // A string zonemap holds prefix keys while the hash covers every byte, so only integers qualify.
        return integerKey && keyRange.min() == keyRange.max() && keyRange.nullCount() == 0
                ? bucket(keyRange.min()) : -1;
    }
}
