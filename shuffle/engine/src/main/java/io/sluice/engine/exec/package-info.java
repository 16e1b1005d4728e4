/**
 * Query execution on one compute node, after DuckDB: push pipelines of a {@link io.sluice.engine.exec.Source}
 * (a table scan whose morsels are blocks, or a finished sink's output), streaming
 * {@link io.sluice.engine.exec.Operator}s (filter, projection, hash and nested-loop join probe) and a
 * {@link io.sluice.engine.exec.Sink} (hash aggregation, join build, sort, limit, result, the inputs of a
 * {@link io.sluice.engine.exec.UnionAll}, window functions, the one-row assertion of a scalar
 * subquery; a distributed
 * sort's {@link io.sluice.engine.exec.SortedRuns} per core and {@link io.sluice.engine.exec.MergeSort}
 * of the runs on the coordinator, through {@link io.sluice.engine.exec.KWayMerge}), run
 * batch-at-a-time by the {@link io.sluice.engine.exec.PipelineExecutor} on a fixed pool of
 * worker threads. One file per physical operator; hash tables and accumulators are primitive
 * arrays.
 *
 * <p>Depends on the format and its storage SPI (scans read {@link io.sluice.format.spi.BlockTable}s),
 * zonemap (block pruning), {@code io.sluice.engine.expr}, the bucketing core (the
 * {@link io.sluice.shuffle.operator.Batch}, the shuffle operator) and {@code io.sluice.engine.spill}, where
 * sorts and group tables past the query's memory budget write their rows
 * ({@link io.sluice.engine.exec.SpilledRunMerge}, {@link io.sluice.engine.exec.SpillPartitions}).
 */
package io.sluice.engine.exec;
