package io.sluice.shuffle;

import io.sluice.format.ColumnVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;

/**
 * Maps rows to shuffle buckets by their key. Both sides of a join use the same function, so equal
 * keys meet in the same bucket. Rows whose key is null go to {@link #NULL_BUCKET}.
 */
public interface BucketFunction {
    /** Where rows with a null key go (a join never matches them; a group-by keeps them together). */
    int NULL_BUCKET = 0;

    /**
     * Number of buckets.
     *
     * @return 1 to {@link Topology#MAX_BUCKETS}; buckets are numbered from 0
     */
    int bucketCount();

    /**
     * The function that buckets the keys sent to their owner bucket: this one, or the one a per-key dispatch
     * ({@link HeavyKeyBucketFunction}) wraps. What EXPLAIN names (range or hash) and estimates from.
     *
     * @return this, unless it dispatches some keys apart
     */
    default BucketFunction owner() {
        return this;
    }

    /**
     * Computes the bucket of rows {@code [0, rowCount)} into {@code out}.
     *
     * @param keys     the key columns (range functions take exactly one)
     * @param rowCount rows to bucket, at most each key column's row count
     * @param out      receives the bucket of row {@code i} at index {@code i}; at least {@code rowCount} long
     * @throws IllegalArgumentException when the number or the kinds of the key columns do not fit the
     *                                  function
     */
    void buckets(ColumnVector[] keys, int rowCount, int[] out);

    /**
     * Groups rows {@code [0, rowCount)} by bucket into {@code out}: bucket {@code b}'s rows, in
     * ascending order, are {@code out.rows()[out.start(b) .. out.end(b))}, each in the bucket
     * {@link #buckets} gives it. The default buckets every row first, then groups them; the range and
     * hash functions append each row to its bucket's list as they compute the bucket, in one pass.
     *
     * @param keys     the key columns, as for {@link #buckets}
     * @param rowCount rows to group, 0 to {@link io.sluice.format.Block#MAX_ROWS} and at most each key
     *                 column's row count
     * @param out      the grouping to fill, made for this function's {@link #bucketCount()}
     * @throws IllegalArgumentException as {@link #buckets} does, or when {@code out} is for another
     *                                  bucket count
     */
    default void group(final ColumnVector[] keys, final int rowCount, final RowsByBucket out) {
        checkGrouping(out);
        final int[] buckets = out.bucketScratch();
        buckets(keys, rowCount, buckets);
        out.group(buckets, rowCount);
    }

    /**
     * Checks that a grouping was made for this function's bucket count.
     *
     * @param out the grouping a caller passed to {@link #group}
     * @throws IllegalArgumentException naming both counts when they differ
     */
    default void checkGrouping(final RowsByBucket out) {
        if (out.bucketCount() != bucketCount()) {
            throw new IllegalArgumentException("a grouping of " + out.bucketCount() + " buckets cannot take the rows of a "
                    + "function of " + bucketCount() + ": make it with new RowsByBucket(function.bucketCount())");
        }
    }

    /**
     * The one bucket that every non-null key within a zonemap's [min, max] maps to, or -1 when the
     * range may span buckets (or the function cannot tell, as hashing cannot unless min == max).
     * Lets a batch or block go to its bucket whole, without per-row work.
     *
     * @param keyRange the zonemap of the key column over the rows in question
     * @return the bucket all those rows go to, {@link #NULL_BUCKET} when every row's key is null, or -1
     */
    int bucketOfRange(ZoneMap keyRange);

    /**
     * Checks, once per plan rather than per row, that this function can bucket key columns of these
     * kinds, in order; throws {@link IllegalArgumentException} naming the column, its kind and the
     * kinds taken otherwise. A mismatched kind would not fail later: it would put rows in the wrong
     * buckets (a string prefix key read as a signed number, say). The default accepts anything.
     *
     * @param keyKinds the kinds of the key columns the plan will pass, in order
     * @throws IllegalArgumentException when the count or a kind does not fit the function
     */
    default void checkKeyKinds(final TypeKind... keyKinds) {
    }

    /**
     * Whether a key column of kind {@code actual} may stand where {@code expected} was declared: the
     * same kind, or 32- and 64-bit integers for each other (they bucket alike, so an INT32 key joins
     * an INT64 key).
     *
     * @param expected the kind the function was declared with
     * @param actual   the kind of the column handed in
     * @return true when rows of {@code actual} bucket as {@code expected} would
     */
    static boolean compatibleKinds(final TypeKind expected, final TypeKind actual) {
        return expected == actual
                || (expected == TypeKind.INT32 || expected == TypeKind.INT64)
                && (actual == TypeKind.INT32 || actual == TypeKind.INT64);
    }
}
