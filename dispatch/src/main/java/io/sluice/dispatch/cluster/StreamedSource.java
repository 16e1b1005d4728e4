package io.sluice.dispatch.cluster;

import io.sluice.dispatch.ExchangeSource;
import io.sluice.engine.exec.Source;
import io.sluice.engine.exec.Vectors;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * What one CN receives in one exchange, read by the pipeline after it while the senders still send:
 * one morsel per local destination ({@link ExchangeSource}), which one worker drains from its first
 * batch to its senders' last end-of-stream, so every destination of the CN is consumed at once and
 * none waits for a worker busy with another. Batches in pooled shuffle memory (from this CN's own
 * senders) are copied out and the pool memory handed back at once; for a shuffle every batch is tagged
 * with its destination's local core, the bucket the pipeline's operators keep apart.
 */
final class StreamedSource implements Source {
    private final RowType rowType;
    private final ExchangeSource[] sources;
    private final int[] cores;
    private final boolean tagCore;
    private final String label;

    /**
     * @param byCore  the CN's sources by local core, null where a core receives nothing
     * @param tagCore whether batches are tagged with their core (a shuffle's buckets)
     * @param label   how EXPLAIN names the exchange
     */
    StreamedSource(final RowType rowType, final ExchangeSource[] byCore, final boolean tagCore, final String label) {
        this.rowType = rowType;
        this.tagCore = tagCore;
        this.label = label;
        final List<Integer> used = new ArrayList<>();
        for (int core = 0; core < byCore.length; core++) {
            if (byCore[core] != null) {
                used.add(core);
            }
        }
        this.sources = new ExchangeSource[used.size()];
        this.cores = new int[used.size()];
        for (int i = 0; i < sources.length; i++) {
            cores[i] = used.get(i);
            sources[i] = byCore[cores[i]];
        }
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public int morselCount() {
        return sources.length;
    }

    @Override
    public boolean ordered() {
        return false;
    }

    @Override
    public Reader openReader() {
        return (morsel, out) -> {
            final ExchangeSource source = sources[morsel];
            try {
                Batch batch;
                while ((batch = source.take()) != null) {
                    final Batch owned = owned(batch);
                    out.accept(tagCore ? owned.withShuffleIdx(cores[morsel]) : owned);
                }
            } finally {
                source.close();
            }
        };
    }

    /** The CN's sources, for closing them when the query ends however it ends. */
    ExchangeSource[] sources() {
        return sources;
    }

    /** A batch that owns its columns: pooled shuffle memory is copied and given back. */
    private static Batch owned(final Batch batch) {
        if (!batch.isPooled()) {
            return batch;
        }
        final ColumnVector[] copy = new ColumnVector[batch.columnCount()];
        for (int c = 0; c < copy.length; c++) {
            final ColumnVector v = batch.column(c);
            copy[c] = Vectors.concat(List.of(v), v.type());
        }
        batch.release();
        return Batch.of(copy);
    }

    @Override
    public String toString() {
        return "EXCHANGE IN " + label + " " + rowType.names();
    }
}
