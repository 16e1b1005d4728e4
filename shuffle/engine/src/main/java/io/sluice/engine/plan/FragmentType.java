package io.sluice.engine.plan;

/**
 * How the rows of a fragment (the pipelines between two exchanges) are spread over the CNs, in
 * the words of a distributed EXPLAIN: where its input comes from.
 */
public enum FragmentType {
    /** Scans of each CN's share of the stored blocks. */
    SOURCE,
    /** The CN's buckets of a hash shuffle. */
    HASH,
    /** The CN's buckets of a range shuffle, or of a colocated scan. */
    RANGE,
    /** Rows spread evenly over every CN's cores, whatever their keys (round-robin batches). */
    ROUND_ROBIN,
    /** Every CN holds all rows (a broadcast build side). */
    BROADCAST,
    /** The coordinator holds all rows (after a gather). */
    SINGLE
}
