/**
 * Physical plans written in Java: the fluent {@link io.sluice.shuffle.plan.Plan} builder, its
 * {@link io.sluice.shuffle.plan.PlanNode} tree, the {@link io.sluice.shuffle.plan.PipelineCompiler}
 * that cuts a tree into pipelines at joins, aggregations and sorts, and the
 * {@link io.sluice.shuffle.plan.QueryRunner} that runs a plan over a store.
 * {@link io.sluice.shuffle.plan.PlanCodec} is the versioned binary form in which a coordinator
 * ships a plan and its {@link io.sluice.shuffle.plan.StrategyConfig} to the compute nodes, each of
 * which decodes a {@link io.sluice.shuffle.plan.ShippedPlan} and compiles it itself.
 *
 * <p>Depends on {@code io.sluice.shuffle.exec}, {@code io.sluice.shuffle.expr}, storage (including
 * its {@code wire} encoding) and zonemap.
 */
package io.sluice.shuffle.plan;
