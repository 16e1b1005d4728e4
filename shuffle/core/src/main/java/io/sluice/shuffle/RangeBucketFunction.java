package io.sluice.shuffle;

import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.util.Arrays;

/**
 * Range bucketing: bucket = number of cut points {@code <=} the key, so bucket {@code i} holds
 * keys in {@code [cut[i-1], cut[i])} and every key of bucket i is below every key of bucket i+1.
 * Keys are zonemap keys (values; prefix keys for strings, compared unsigned). Lookups are
 * branch-free and take constant time per key through a {@link RangeSlotTable}; when the cut points
 * are bunched too unevenly for a small table, a fixed number of halving steps over the cut points,
 * padded to a power of two. Immutable and thread-safe.
 */
public final class RangeBucketFunction implements BucketFunction {
    private final TypeKind kind;
    private final long[] cuts;
    /** Cut points in signed order, padded with MAX_VALUE to a power of two minus one. */
    private final long[] padded;
    private final int steps;
    private final long flip;
    /** Constant-time lookup, or null when the cut points need the search (or there are none). */
    private final RangeSlotTable table;

    /**
     * A range function over the given cut points.
     *
     * @param kind      the key's kind, which fixes how keys and cut points compare
     * @param cutPoints {@code bucketCount - 1} strictly increasing keys (in the kind's key order); copied
     * @throws IllegalArgumentException when the cut points are not strictly increasing or give more
     *                                  than {@link Topology#MAX_BUCKETS} buckets
     */
    public RangeBucketFunction(final TypeKind kind, final long[] cutPoints) {
        this.kind = kind;
        this.cuts = cutPoints.clone();
        if (cuts.length + 1 > Topology.MAX_BUCKETS) {
            throw new IllegalArgumentException(cuts.length + " cut points give more than " + Topology.MAX_BUCKETS + " buckets");
        }
        for (int i = 1; i < cuts.length; i++) {
            if (kind.compareKeys(cuts[i - 1], cuts[i]) >= 0) {
                throw new IllegalArgumentException("cut points must be strictly increasing: cut " + (i - 1) + " = "
                        + cuts[i - 1] + " is not below cut " + i + " = " + cuts[i]);
            }
        }
        this.flip = kind == TypeKind.STRING ? Long.MIN_VALUE : 0;
        int size = 1;
        int s = 0;
        while (size - 1 < cuts.length) {
            size <<= 1;
            s++;
        }
        this.steps = s;
        this.padded = new long[size];
        for (int i = 0; i < size; i++) {
            padded[i] = i < cuts.length ? cuts[i] ^ flip : Long.MAX_VALUE;
        }
        this.table = cuts.length == 0 ? null : RangeSlotTable.build(Arrays.copyOf(padded, cuts.length));
    }

    /** Whether lookups use the constant-time slot table rather than the search (for tests and benchmarks). */
    boolean usesSlotTable() {
        return table != null;
    }

    /**
     * The key kind the cut points are in.
     *
     * @return the kind given at construction
     */
    public TypeKind kind() {
        return kind;
    }

    /**
     * A copy of the cut points.
     *
     * @return a new array of the {@code bucketCount() - 1} cut points, in key order
     */
    public long[] cutPoints() {
        return cuts.clone();
    }

    @Override
    public int bucketCount() {
        return cuts.length + 1;
    }

    /**
     * The bucket of one key.
     *
     * @param key a non-null zonemap key of the function's kind (a prefix key for strings)
     * @return the number of cut points at or below it, 0 to {@link #bucketCount()} - 1
     */
    public int bucket(final long key) {
        return table != null ? table.bucket(key ^ flip) : lookup(key ^ flip);
    }

    private int lookup(final long signedKey) {
        // Invariant: the answer lies in [base, base + 2^k]; each step halves the window without a branch.
        int base = 0;
        int half = padded.length >>> 1;
        for (int k = 0; k < steps; k++) {
            base += padded[base + half - 1] <= signedKey ? half : 0;
            half >>>= 1;
        }
        // A key at or above MAX_VALUE padding only happens for MAX_VALUE itself; clamp to the last bucket.
        return Math.min(base, cuts.length);
    }

    @Override
    public void buckets(final ColumnVector[] keys, final int rowCount, final int[] out) {
        if (keys.length != 1) {
            throw new IllegalArgumentException("a range shuffle takes one key column, got " + keys.length);
        }
        final ColumnVector key = keys[0];
        checkKind(0, key.type().kind());
        if (cuts.length == 0) {
            Arrays.fill(out, 0, rowCount, 0);
        } else if (key instanceof LongVector lv) {
            if (table != null) {
                table.buckets(lv.values(), rowCount, out);
            } else {
                final long[] values = lv.values();
                for (int i = 0; i < rowCount; i++) {
                    out[i] = lookup(values[i]);
                }
            }
        } else if (key instanceof IntVector iv) {
            if (table != null) {
                table.buckets(iv.values(), rowCount, out);
            } else {
                final int[] values = iv.values();
                for (int i = 0; i < rowCount; i++) {
                    out[i] = lookup(values[i]);
                }
            }
        } else {
            // strings by prefix key, 128-bit decimals by their key saturated to the long range
            // (monotone, so buckets stay ordered; values beyond the range share the outer buckets)
            for (int i = 0; i < rowCount; i++) {
                out[i] = bucket(key.key(i));
            }
        }
        final long[] nulls = key.nulls();
        if (nulls != null) {
            final int words = (rowCount + 63) >>> 6;
            for (int w = 0; w < words; w++) {
                long bits = nulls[w];
                while (bits != 0) {
                    final int row = (w << 6) + Long.numberOfTrailingZeros(bits);
                    if (row < rowCount) {
                        out[row] = NULL_BUCKET;
                    }
                    bits &= bits - 1;
                }
            }
        }
    }

    /**
     * {@inheritDoc} Integer keys without nulls go to their bucket's list in the same pass that looks
     * the bucket up in the slot table; other keys are bucketed first, then grouped.
     */
    @Override
    public void group(final ColumnVector[] keys, final int rowCount, final RowsByBucket out) {
        checkGrouping(out);
        if (keys.length == 1 && table != null && keys[0].nulls() == null && out.takesLists()) {
            final ColumnVector key = keys[0];
            checkKind(0, key.type().kind());
            if (key instanceof LongVector lv) {
                final int[] cursors = out.beginLists(rowCount);
                table.group(lv.values(), rowCount, out.lists(), cursors);
                return;
            }
            if (key instanceof IntVector iv) {
                final int[] cursors = out.beginLists(rowCount);
                table.group(iv.values(), rowCount, out.lists(), cursors);
                return;
            }
        }
        BucketFunction.super.group(keys, rowCount, out);
    }

    @Override
    public void checkKeyKinds(final TypeKind... keyKinds) {
        if (keyKinds.length != 1) {
            throw new IllegalArgumentException("a range shuffle takes one key column, got " + keyKinds.length
                    + ": shuffle by one column or use a hash shuffle");
        }
        checkKind(0, keyKinds[0]);
    }

    private void checkKind(final int keyIndex, final TypeKind actual) {
        if (!BucketFunction.compatibleKinds(kind, actual)) {
            throw new IllegalArgumentException("key column " + keyIndex + " is " + actual + " but the range cut points are "
                    + kind + ": range bucketing needs keys of the cut points' kind (INT32 and INT64 mix)");
        }
    }

    @Override
    public int bucketOfRange(final ZoneMap keyRange) {
        if (!keyRange.hasValues()) {
            return keyRange.rowCount() == 0 ? -1 : NULL_BUCKET;
        }
        final int low = bucket(keyRange.min());
        if (low != bucket(keyRange.max())) {
            return -1;
        }
        return keyRange.nullCount() == 0 || low == NULL_BUCKET ? low : -1;
    }
}
