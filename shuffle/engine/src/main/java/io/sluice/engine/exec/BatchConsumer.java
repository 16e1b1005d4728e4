package io.sluice.engine.exec;

import io.sluice.shuffle.operator.Batch;

/** Where a pipeline stage pushes its output batches: the next operator or the sink. */
@FunctionalInterface
public interface BatchConsumer {
    /** Takes one batch; the batch may be read only during the call unless the consumer copies it. */
    void accept(Batch batch);
}
