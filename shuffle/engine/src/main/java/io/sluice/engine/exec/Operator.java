package io.sluice.engine.exec;

/**
 * A streaming step of a pipeline, one instance per worker: it takes batches pushed from
 * upstream and pushes what it produces to {@link #next}. It holds no rows between batches, except
 * rows it wrote to disk to finish at the end of its input ({@link #endOfInput()}).
 */
public abstract class Operator implements BatchConsumer {
    protected final BatchConsumer next;

    protected Operator(final BatchConsumer next) {
        this.next = next;
    }

    /**
     * Called once per worker after its last batch, before the operators after it hear of their end: an
     * operator that put rows aside (a join probe whose build partitions are on disk) pushes what they give
     * to {@link #next} now. Only rows this worker's instance took in come out, so a bucket's rows stay with
     * the worker that had them.
     */
    public void endOfInput() {
    }
}
