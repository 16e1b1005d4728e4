package io.sluice.dispatch.cluster;

import io.sluice.dispatch.DispatchException;
import io.sluice.shuffle.exec.Source;
import io.sluice.shuffle.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The rows one CN received in an exchange, read by the pipeline after it: one morsel per local core
 * (batches tagged with the core, for a shuffle) or one per batch. The pipeline starts only once
 * every sender of the exchange has ended its stream to this CN.
 */
final class ReceivedSource implements Source {
    private final RowType rowType;
    private final CompletableFuture<List<List<Batch>>> received;
    private final boolean byCore;
    private final String label;
    private List<List<Batch>> morsels;

    /** @param label how EXPLAIN names the exchange */
    ReceivedSource(final RowType rowType, final CompletableFuture<List<List<Batch>>> received, final boolean byCore,
            final String label) {
        this.rowType = rowType;
        this.label = label;
        this.received = received;
        this.byCore = byCore;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public int morselCount() {
        final List<List<Batch>> byCoreLists;
        try {
            byCoreLists = received.get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DispatchException("interrupted while waiting for the rows of an exchange");
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new DispatchException("receiving an exchange failed: " + e.getCause(), e.getCause());
        }
        if (byCore) {
            morsels = byCoreLists;
        } else {
            morsels = new ArrayList<>();
            for (final List<Batch> core : byCoreLists) {
                for (final Batch b : core) {
                    morsels.add(List.of(b));
                }
            }
        }
        return morsels.size();
    }

    @Override
    public boolean ordered() {
        return false;
    }

    @Override
    public Reader openReader() {
        return (morsel, out) -> {
            for (final Batch b : morsels.get(morsel)) {
                out.accept(b);
            }
        };
    }

    @Override
    public String toString() {
        return "EXCHANGE IN " + label + " " + rowType.names();
    }
}
