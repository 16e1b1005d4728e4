package io.sluice.engine.exec;

/**
 * A streaming step of a pipeline, one instance per worker: it takes batches pushed from
 * upstream and pushes what it produces to {@link #next}. It holds no rows between batches.
 */
public abstract class Operator implements BatchConsumer {
    protected final BatchConsumer next;

    protected Operator(final BatchConsumer next) {
        this.next = next;
    }
}
