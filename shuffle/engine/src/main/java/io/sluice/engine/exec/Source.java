package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;

/**
 * The start of a pipeline: its input cut into morsels (a stored block, or a batch of a finished
 * sink's output) that workers take one at a time. Read {@link #morselCount()} only when the
 * pipeline starts: a source over a sink's output knows its size only after that sink finished.
 */
public interface Source {
    /** The columns of the batches produced. */
    RowType rowType();

    /** Number of morsels. */
    int morselCount();

    /** Whether morsels must be consumed in order by a single worker (output of a sort). */
    boolean ordered();

    /** A per-worker reader (it may hold scratch state). */
    Reader openReader();

    /** Produces the batches of one morsel into a consumer; one instance per worker. */
    interface Reader {
        void produce(int morsel, BatchConsumer out);
    }
}
