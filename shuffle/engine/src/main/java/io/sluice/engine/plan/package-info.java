/**
 * Physical plans written in Java: the fluent {@link io.sluice.engine.plan.Plan} builder, its
 * {@link io.sluice.engine.plan.PlanNode} tree, the {@link io.sluice.engine.plan.PipelineCompiler}
 * that cuts a tree into pipelines at joins, aggregations and sorts, and the
 * {@link io.sluice.engine.plan.QueryRunner} that runs a plan over the tables of a
 * {@link io.sluice.format.spi.Catalog}. Planner rules, one class each, decide how each join, group-by
 * and sort is distributed ({@code DetermineJoinDistribution}, {@code DetermineGroupStrategy},
 * {@code DetermineSortDistribution}, {@code DetermineRuntimeFilters}; windows and per-key row
 * assertions by {@code DeterminePartitionDistribution}).
 * {@link io.sluice.engine.plan.PlanCodec} is the versioned binary form in which a coordinator
 * ships a plan and its {@link io.sluice.engine.plan.StrategyConfig} to the compute nodes, each of
 * which decodes a {@link io.sluice.engine.plan.ShippedPlan} and compiles it itself.
 *
 * <p>Depends on {@code io.sluice.engine.exec}, {@code io.sluice.engine.expr}, {@code io.sluice.engine.wire},
 * the format with its storage SPI, zonemap and the bucketing core.
 */
package io.sluice.engine.plan;
