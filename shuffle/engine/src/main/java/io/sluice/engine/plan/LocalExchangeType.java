package io.sluice.engine.plan;

/**
 * How rows move between the pipeline tasks (worker threads) of one CN in front of an operator, in the
 * words of seed 000 (Doris's local exchangers), and what each is in this engine. {@link DetermineLocalExchanges}
 * decides one for each operator input.
 */
public enum LocalExchangeType {
    /** No local exchange: the operator runs in the tasks its input's rows are already in. */
    NOOP,
    /**
     * Rows re-bucketed between the cores by a hash (or range) function of the key: a shuffle between the
     * cores of one process ({@code LocalExchanges}, a {@code ShuffleExchange}).
     */
    HASH_SHUFFLE,
    /**
     * Rows re-bucketed by the buckets the stored data is distributed in (the range buckets colocated
     * scans read): a range shuffle between the cores on the storage-derived boundaries.
     */
    BUCKET_HASH_SHUFFLE,
    /** Whole blocks spread over the tasks: a scan's morsels (one stored block each) taken by any worker. */
    PASSTHROUGH,
    /** Rows spread evenly over the tasks whatever their blocks: round-robin batches. */
    ADAPTIVE_PASSTHROUGH,
    /** Every row to every task: one build shared read-only by all workers. */
    BROADCAST,
    /**
     * Every row to any one task: a broadcast build arrives once per CN (the dispatch sends one copy to the
     * CN's first core) and becomes the one table all its cores probe.
     */
    PASS_TO_ONE
}
