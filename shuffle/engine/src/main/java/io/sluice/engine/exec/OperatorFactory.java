package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;

/** A physical streaming operator of a plan: its output columns, and one {@link Operator} per worker. */
public interface OperatorFactory {
    /** The columns of the batches the operator pushes on. */
    RowType outputType();

    /** An operator instance for one worker, pushing to {@code next}. */
    Operator create(BatchConsumer next);

    /**
     * Called once after its pipeline ran: every worker ended and the sink finished. What the instances shared
     * and no other pipeline reads (a join's build) may give its memory back now, so that the operators of the
     * query's later pipelines have the budget.
     */
    default void pipelineFinished() {
    }
}
