/**
 * Query execution on one compute node, after DuckDB: push pipelines of a {@link io.sluice.shuffle.exec.Source}
 * (a table scan whose morsels are blocks, or a finished sink's output), streaming
 * {@link io.sluice.shuffle.exec.Operator}s (filter, projection, hash join probe) and a
 * {@link io.sluice.shuffle.exec.Sink} (hash aggregation, join build, sort, limit, result), run
 * batch-at-a-time by the {@link io.sluice.shuffle.exec.PipelineExecutor} on a fixed pool of
 * worker threads. One file per physical operator; hash tables and accumulators are primitive
 * arrays.
 *
 * <p>Depends on storage, zonemap (block pruning), {@code io.sluice.shuffle.expr} and the
 * {@link io.sluice.shuffle.operator.Batch}.
 */
package io.sluice.shuffle.exec;
