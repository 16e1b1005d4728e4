package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;

/** A physical streaming operator of a plan: its output columns, and one {@link Operator} per worker. */
public interface OperatorFactory {
    /** The columns of the batches the operator pushes on. */
    RowType outputType();

    /** An operator instance for one worker, pushing to {@code next}. */
    Operator create(BatchConsumer next);
}
