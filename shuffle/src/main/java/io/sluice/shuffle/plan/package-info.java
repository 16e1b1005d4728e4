/**
 * Physical plans written in Java: the fluent {@link io.sluice.shuffle.plan.Plan} builder, its
 * {@link io.sluice.shuffle.plan.PlanNode} tree, the {@link io.sluice.shuffle.plan.PipelineCompiler}
 * that cuts a tree into pipelines at joins, aggregations and sorts, and the
 * {@link io.sluice.shuffle.plan.QueryRunner} that runs a plan over a store.
 *
 * <p>Depends on {@code io.sluice.shuffle.exec}, {@code io.sluice.shuffle.expr}, storage and zonemap.
 */
package io.sluice.shuffle.plan;
