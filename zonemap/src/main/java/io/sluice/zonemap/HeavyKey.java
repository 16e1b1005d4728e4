package io.sluice.zonemap;

/**
 * A key that holds a large share of a column's rows: what a range or hash shuffle would put into one
 * bucket, whatever its boundaries.
 *
 * @param key   the key, as a zonemap holds it ({@link io.sluice.format.StringKey} prefix keys for strings)
 * @param rows  the estimated rows holding it (within the sketch's error of the true count)
 * @param share {@code rows} over the column's non-null rows, in (0, 1]
 */
public record HeavyKey(long key, long rows, double share) {
}
