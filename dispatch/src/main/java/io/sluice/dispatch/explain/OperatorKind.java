package io.sluice.dispatch.explain;

/** What an operator of the explained tree is, as {@link PipelineTree} finds it in the pipelines. */
enum OperatorKind {
    SCAN, COLOCATED_SCAN, FILTER, PROJECT, HASH_JOIN, NESTED_LOOP_JOIN, GROUP_BY, SORT, SORTED_RUNS, MERGE_SORT, MERGE_SORT_IN,
    LIMIT, UNION_ALL, EXCHANGE_IN, EXCHANGE_OUT, OTHER
}
