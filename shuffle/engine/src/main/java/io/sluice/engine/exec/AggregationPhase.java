package io.sluice.engine.exec;

/**
 * The part of an aggregation a {@link HashAggregate} runs. An aggregation over several compute
 * nodes runs PARTIAL on each node, sends the state rows (ordinary batches) to one node, and runs
 * FINAL over all of them, which gives exactly what SINGLE gives over all the rows.
 */
public enum AggregationPhase {
    /** Rows in, aggregate values out: the whole aggregation in one place. */
    SINGLE,
    /** Rows in, state rows out: the key columns, then each aggregate's state columns. */
    PARTIAL,
    /** State rows of PARTIAL in, aggregate values out, as SINGLE gives them. */
    FINAL
}
