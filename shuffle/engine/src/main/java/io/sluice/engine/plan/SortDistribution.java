package io.sluice.engine.plan;

/**
 * How an ORDER BY (or top-N) is distributed, as {@link DetermineSortDistribution} decides and
 * {@link PlanNode.OrderBy#distribution()} records.
 */
public enum SortDistribution {
    /** One process: its workers' rows are sorted together, no exchange. */
    LOCAL_SORT,
    /**
     * Every row gathered to the coordinator and sorted there in full (with a limit, each CN first
     * keeps its top-N, and the coordinator sorts those again).
     */
    GATHER_SORT,
    /**
     * Each core of each CN sorts its rows into a run (its top-N with a limit), the runs are gathered
     * as separate streams and the coordinator k-way merges them: seed 001's
     * {@code EXCHANGE IN MERGE SORT DISTR} over {@code EXCHANGE OUT DISTR}.
     */
    MERGE_SORT
}
