/**
 * Physical plans written in Java: the fluent {@link io.sluice.engine.plan.Plan} builder, its
 * {@link io.sluice.engine.plan.PlanNode} tree, the {@link io.sluice.engine.plan.PipelineCompiler}
 * that cuts a tree into pipelines at joins, aggregations and sorts, and the
 * {@link io.sluice.engine.plan.QueryRunner} that runs a plan over the tables of a
 * {@link io.sluice.format.spi.Catalog}. Planner rules, one class each, decide how each join, group-by
 * and sort is distributed ({@code DetermineJoinDistribution}, {@code DetermineGroupStrategy},
 * {@code DetermineSortDistribution}, {@code DetermineRuntimeFilters}; windows and per-key row
 * assertions by {@code DeterminePartitionDistribution}); they run only inside the
 * {@link io.sluice.engine.plan.PhysicalPlanner}, once per query and topology, whose
 * {@link io.sluice.engine.plan.DecidedPlan} carries every decision (with a
 * {@link io.sluice.engine.plan.DistributionReason} and its numbers) to the compiler, and every exchange
 * between pipelines as a {@link io.sluice.engine.plan.DecidedExchange} with its id ({@code DetermineExchanges}).
 * {@link io.sluice.engine.plan.PlanCodec} is the versioned binary form in which a client sends a plan
 * (or SQL text) and its {@link io.sluice.engine.plan.StrategyConfig} to the coordinator, and the
 * coordinator ships the decided plan to the compute nodes, which only cut it into pipelines.
 *
 * <p>Depends on {@code io.sluice.engine.exec}, {@code io.sluice.engine.expr}, {@code io.sluice.engine.wire},
 * the format with its storage SPI, zonemap and the bucketing core.
 */
package io.sluice.engine.plan;
