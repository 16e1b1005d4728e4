package io.sluice.shuffle;

import io.sluice.format.TypeKind;

/**
 * The keys one CN owns under range boundaries, so that a scan of a block it shares with other CNs
 * ({@link StraddlePolicy#SPLIT}) keeps exactly its own rows: the non-null keys from {@code from}
 * (inclusive) to {@code to} (exclusive) in the kind's key order, either end possibly open, and
 * the null keys when the CN runs {@link BucketFunction#NULL_BUCKET}. A storage engine can push it
 * down as {@code key >= from AND key < to}, {@code OR key IS NULL} when {@code holdsNulls}.
 *
 * @param kind       the key's kind; string prefix keys ({@link io.sluice.format.StringKey}) compare unsigned
 * @param hasFrom    false when the range is open below (the first CN)
 * @param from       the lowest key of the range when {@code hasFrom}, else 0
 * @param hasTo      false when the range is open above (the last CN)
 * @param to         the lowest key above the range when {@code hasTo}, else 0
 * @param holdsNulls whether rows whose key is null belong to this CN
 */
public record KeyRange(TypeKind kind, boolean hasFrom, long from, boolean hasTo, long to, boolean holdsNulls) {
    /**
     * Checks that the range has a kind and, when closed at both ends, is not empty.
     *
     * @param kind       the key's kind
     * @param hasFrom    false when the range is open below
     * @param from       the lowest key of the range when {@code hasFrom}, else 0
     * @param hasTo      false when the range is open above
     * @param to         the lowest key above the range when {@code hasTo}, else 0
     * @param holdsNulls whether rows whose key is null belong to the range's CN
     * @throws IllegalArgumentException when {@code kind} is null, or {@code from} is not below {@code to}
     */
    public KeyRange {
        if (kind == null) {
            throw new IllegalArgumentException("a key range needs the key's kind to compare keys");
        }
        if (hasFrom && hasTo && kind.compareKeys(from, to) >= 0) {
            throw new IllegalArgumentException("key range [" + from + ", " + to + ") is empty: from must be below to");
        }
    }

    /**
     * Whether a non-null key lies in the range.
     *
     * @param key a zonemap key of the range's kind (a prefix key for strings)
     * @return true when {@code from <= key < to}, an open end checking nothing
     */
    public boolean contains(final long key) {
        return (!hasFrom || kind.compareKeys(from, key) <= 0) && (!hasTo || kind.compareKeys(key, to) < 0);
    }

    @Override
    public String toString() {
        return "[" + (hasFrom ? Long.toString(from) : "min") + ", " + (hasTo ? to + ")" : "max]")
                + (holdsNulls ? " and nulls" : "");
    }
}
