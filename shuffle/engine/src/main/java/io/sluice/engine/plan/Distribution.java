package io.sluice.engine.plan;

/** How one join, group-by or window was distributed over the cores and CNs, as reported by {@link Decision}. */
public enum Distribution {
    /** Join: one build table shared by all cores. */
    BROADCAST,
    /** Group-by: partial tables per core, merged at the end. */
    MERGE,
    /** Rows hash-shuffled by the key, one bucket per core. */
    SHUFFLE_HASH,
    /** Rows range-shuffled by the key, one bucket per core. */
    SHUFFLE_RANGE,
    /** Range buckets read by colocated scans where the input is a scan, range-shuffled elsewhere. */
    COLOCATE,
    /** Join: probe rows hash-shuffled inside their CN, build rows to the matching core of every CN. */
    HYBRID,
    /**
     * Group-by on the key of the shuffle its input already went through: no new shuffle, no merge;
     * join whose sides are both already range-partitioned on their keys by the same buckets: no exchange.
     */
    REUSE_SHUFFLE,
    /**
     * Join (seed 001's PKEY): one side keeps the range partitioning it already has on its key, the other
     * is repartitioned by those buckets (or, a scan stored in key order, read colocated on them).
     */
    PKEY,
    /** Window or scalar subquery without keys: all rows gathered to the coordinator (a SINGLE fragment). */
    GATHER,
    /**
     * Nested-loop join whose probe rows are all on the coordinator: they are spread round-robin over the
     * cores of every CN, and the build side copied to every CN, so that each CN computes a share of the
     * pairs (Trino's ROUND_ROBIN fragment).
     */
    ROUND_ROBIN;

    /** Whether rows go one bucket per core. */
    public boolean isShuffle() {
        return this != BROADCAST && this != MERGE && this != GATHER && this != ROUND_ROBIN;
    }
}
