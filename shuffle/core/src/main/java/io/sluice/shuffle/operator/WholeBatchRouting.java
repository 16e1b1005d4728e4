package io.sluice.shuffle.operator;

/** When the shuffle operator may route a batch to one bucket whole instead of splitting it row by row. */
public enum WholeBatchRouting {
    /**
     * Route a batch whole when its key zonemap, or the first and last key of a batch sorted by the
     * key without nulls, lie inside one bucket; split it otherwise. The default.
     */
    WHEN_PROVEN,
    /** Split every batch row by row, whatever its zonemap says (a baseline for benchmarks and tests). */
    NEVER,
    /**
     * Every batch must be routable whole: a colocated scan promised that each block lies inside one
     * bucket. A batch without a key zonemap or sorted ends, or whose key range spans buckets, fails
     * with an error naming it instead of being split.
     */
    REQUIRED
}
