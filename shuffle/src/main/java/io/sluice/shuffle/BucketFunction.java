package io.sluice.shuffle;

import io.sluice.storage.ColumnVector;
import io.sluice.storage.ZoneMap;

/**
 * Maps rows to shuffle buckets by their key. Both sides of a join use the same function, so equal
 * keys meet in the same bucket. Rows whose key is null go to {@link #NULL_BUCKET}.
 */
public interface BucketFunction {
    /** Where rows with a null key go (a join never matches them; a group-by keeps them together). */
    int NULL_BUCKET = 0;

    /** Number of buckets. */
    int bucketCount();

    /**
     * Computes the bucket of rows {@code [0, rowCount)} into {@code out}.
     *
     * @param keys the key columns (range functions take exactly one)
     */
    void buckets(ColumnVector[] keys, int rowCount, int[] out);

    /**
     * The one bucket that every non-null key within a zonemap's [min, max] maps to, or -1 when the
     * range may span buckets (or the function cannot tell, as hashing cannot unless min == max).
     * Lets a batch or block go to its bucket whole, without per-row work.
     */
    int bucketOfRange(ZoneMap keyRange);
}
