package io.sluice.shuffle;

import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;

/**
 * A bucket function that dispatches the rows of heavy keys apart from the rest (per-key dispatch): every
 * other key goes to the bucket its owner function gives ({@code TO_OWNER}); a heavy key's rows go to the
 * group {@link #heavyGroup()}, which the shuffle operator places as {@link #dispatch()} says (in the buckets
 * the other keys left emptiest, {@link #targets()} first, or copied to every bucket); rows of a null key that
 * cannot match go to {@link #droppedGroup()}, which the shuffle operator drops before anything moves. Without
 * heavy keys ({@link HeavyKeySet#none()}) it only drops null keys.
 *
 * <p>One key column. The groups beyond {@link #bucketCount()} exist only between this function and
 * {@link io.sluice.shuffle.operator.ShuffleOperator}, which never tags a batch with one.
 */
public final class HeavyKeyBucketFunction implements BucketFunction {
    private final BucketFunction owner;
    private final TypeKind kind;
    private final HeavyKeySet heavy;
    private final long[] heavyKeys;
    private final HeavyKeyDispatch dispatch;
    private final int[] targets;
    private final boolean dropNullKeys;
    private final int heavyGroup;

    private HeavyKeyBucketFunction(final BucketFunction owner, final TypeKind kind, final HeavyKeySet heavy,
                                   final HeavyKeyDispatch dispatch, final int[] targets, final boolean dropNullKeys) {
        if (owner == null || kind == null || heavy == null) {
            throw new IllegalArgumentException("per-key dispatch needs an owner function, a key kind and heavy keys,"
                    + " got owner=" + owner + ", kind=" + kind + ", heavy=" + heavy);
        }
        this.owner = owner;
        this.kind = kind;
        this.heavy = heavy;
        this.heavyKeys = heavy.keys();
        this.dispatch = dispatch;
        this.targets = targets;
        this.dropNullKeys = dropNullKeys;
        this.heavyGroup = owner.bucketCount();
    }

    /**
     * The large side's function: heavy keys fill the emptiest buckets, this CN's first (the shuffle operator
     * places them).
     *
     * @param owner        buckets of every other key
     * @param kind         the key column's kind
     * @param heavy        the heavy keys
     * @param firstBucket  this CN's first bucket
     * @param cores        this CN's cores (its buckets are {@code firstBucket .. firstBucket + cores - 1})
     * @param dropNullKeys whether rows of a null key are dropped (an inner or semi join, where they match
     *                     nothing); else they are placed like a heavy key's
     * @return the function
     * @throws IllegalArgumentException when this CN's buckets are not all buckets of {@code owner}
     */
    public static HeavyKeyBucketFunction localFirst(final BucketFunction owner, final TypeKind kind,
                                                   final HeavyKeySet heavy, final int firstBucket, final int cores,
                                                   final boolean dropNullKeys) {
        if (cores < 1 || firstBucket < 0 || firstBucket + cores > owner.bucketCount()
                || owner.bucketCount() % cores != 0 || firstBucket % cores != 0) {
            throw new IllegalArgumentException("local buckets " + firstBucket + ".." + (firstBucket + cores - 1)
                    + " are not buckets of a function of " + owner.bucketCount() + ": give this CN's first bucket"
                    + " and core count from the same topology (every CN has as many cores)");
        }
        final int[] local = new int[cores];
        for (int c = 0; c < cores; c++) {
            local[c] = firstBucket + c;
        }
        return new HeavyKeyBucketFunction(owner, kind, heavy, HeavyKeyDispatch.LOCAL_FIRST, local, dropNullKeys);
    }

    /**
     * The other side's function: heavy keys to every bucket; null keys, which match nothing, dropped. With no
     * heavy key, a join's build side that only drops its null keys.
     *
     * @param owner buckets of every other key
     * @param kind  the key column's kind
     * @param heavy the heavy keys
     * @return the function
     */
    public static HeavyKeyBucketFunction replicate(final BucketFunction owner, final TypeKind kind,
                                                   final HeavyKeySet heavy) {
        final int[] all = new int[owner.bucketCount()];
        for (int b = 0; b < all.length; b++) {
            all[b] = b;
        }
        return new HeavyKeyBucketFunction(owner, kind, heavy, HeavyKeyDispatch.REPLICATE, all, true);
    }

    /** The function that buckets every key that is not heavy. */
    @Override
    public BucketFunction owner() {
        return owner;
    }

    /**
     * The heavy keys.
     *
     * @return the heavy keys
     */
    public HeavyKeySet heavyKeys() {
        return heavy;
    }

    /**
     * What happens to a heavy key's rows.
     *
     * @return what happens to a heavy key's rows
     */
    public HeavyKeyDispatch dispatch() {
        return dispatch;
    }

    /**
     * The buckets a heavy key's rows go to first: this CN's ({@code LOCAL_FIRST}) or all ({@code REPLICATE}).
     *
     * @return the buckets a heavy key's rows go to first: this CN's ({@code LOCAL_FIRST}) or all ({@code REPLICATE})
     */
    public int[] targets() {
        return targets.clone();
    }

    /**
     * Whether rows of a null key are dropped.
     *
     * @return whether rows of a null key are dropped
     */
    public boolean dropsNullKeys() {
        return dropNullKeys;
    }

    /**
     * The group of heavy-key rows, {@link #bucketCount()}.
     *
     * @return the group of heavy-key rows, {@link #bucketCount()}
     */
    public int heavyGroup() {
        return heavyGroup;
    }

    /**
     * The group of dropped rows, {@link #bucketCount()} + 1.
     *
     * @return the group of dropped rows, {@link #bucketCount()} + 1
     */
    public int droppedGroup() {
        return heavyGroup + 1;
    }

    /**
     * Groups a row may get: the buckets and the two groups beyond them.
     *
     * @return groups a row may get: the buckets and the two groups beyond them
     */
    public int groupCount() {
        return heavyGroup + 2;
    }

    @Override
    public int bucketCount() {
        return owner.bucketCount();
    }

    /** Fills {@code out} with each row's bucket or group: a bucket for ordinary keys, or one of the two groups. */
    @Override
    public void buckets(final ColumnVector[] keys, final int rowCount, final int[] out) {
        if (keys.length != 1) {
            throw new IllegalArgumentException("per-key dispatch takes one key column, got " + keys.length);
        }
        owner.buckets(keys, rowCount, out);
        final ColumnVector key = keys[0];
        final int group = heavyGroup;
        if (heavyKeys.length == 0) {
            // Only null keys are dispatched apart.
        } else if (key instanceof LongVector lv) {
            final long[] values = lv.values();
            for (int i = 0; i < rowCount; i++) {
                if (heavy.contains(values[i])) {
                    out[i] = group;
                }
            }
        } else if (key instanceof IntVector iv) {
            final int[] values = iv.values();
            for (int i = 0; i < rowCount; i++) {
                if (heavy.contains(values[i])) {
                    out[i] = group;
                }
            }
        } else {
            for (int i = 0; i < rowCount; i++) {
                if (heavy.contains(key.key(i))) {
                    out[i] = group;
                }
            }
        }
        final long[] nulls = key.nulls();
        if (nulls != null) {
            final int nullGroup = dropNullKeys ? droppedGroup() : group;
            final int words = (rowCount + 63) >>> 6;
            for (int w = 0; w < words; w++) {
                long bits = nulls[w];
                while (bits != 0) {
                    final int row = (w << 6) + Long.numberOfTrailingZeros(bits);
                    if (row < rowCount) {
                        out[row] = nullGroup;
                    }
                    bits &= bits - 1;
                }
            }
        }
    }

    @Override
    public void group(final ColumnVector[] keys, final int rowCount, final RowsByBucket out) {
        if (out.bucketCount() != groupCount()) {
            throw new IllegalArgumentException("a grouping of " + out.bucketCount() + " buckets cannot take per-key"
                    + " dispatch over " + bucketCount() + " buckets: make it with new RowsByBucket(groupCount())");
        }
        final int[] buckets = out.bucketScratch();
        buckets(keys, rowCount, buckets);
        out.group(buckets, rowCount);
    }

    /** The owner's bucket when the range holds no heavy key and no null; else -1 (the rows are split). */
    @Override
    public int bucketOfRange(final ZoneMap keyRange) {
        if (keyRange.nullCount() > 0 || !keyRange.hasValues()) {
            return -1;
        }
        for (final long k : heavyKeys) {
            if (kind.compareKeys(keyRange.min(), k) <= 0 && kind.compareKeys(k, keyRange.max()) <= 0) {
                return -1;
            }
        }
        return owner.bucketOfRange(keyRange);
    }

    @Override
    public void checkKeyKinds(final TypeKind... keyKinds) {
        owner.checkKeyKinds(keyKinds);
        if (keyKinds.length != 1) {
            throw new IllegalArgumentException("per-key dispatch takes one key column, got " + keyKinds.length);
        }
    }

    @Override
    public String toString() {
        return "HeavyKeyBucketFunction[" + dispatch + ", " + heavy.size() + " heavy keys, owner " + owner + "]";
    }
}
