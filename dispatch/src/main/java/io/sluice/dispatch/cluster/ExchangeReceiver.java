package io.sluice.dispatch.cluster;

import io.sluice.dispatch.ComputeNode;
import io.sluice.dispatch.DispatchException;
import io.sluice.dispatch.Exchange;
import io.sluice.dispatch.ExchangeSource;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.exec.Source;
import io.sluice.shuffle.exec.Vectors;
import io.sluice.shuffle.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.ColumnVector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;

/**
 * The receiving side of every exchange of one query on one CN: one thread polls all of the CN's
 * {@link ExchangeSource}s, keeps each batch (copied out of shuffle pool memory, which goes back to
 * its sender at once) under the local core that received it, and completes an exchange when all of
 * its sources have finished. Receiving into memory while the pipelines run means no sender ever
 * waits for a pipeline that has not started; a receiving pipeline waits only for its exchange to
 * complete. A failure (a sender's error, a silent sender) fails every exchange still open.
 */
final class ExchangeReceiver implements AutoCloseable {
    private final ComputeNode node;
    private final List<Received> exchanges = new ArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;

    ExchangeReceiver(final ComputeNode node, final long queryId) {
        this.node = node;
        this.thread = new Thread(this::run, "sluice-receiver-cn" + node.cn() + "-q" + queryId);
        this.thread.setDaemon(true);
    }

    /**
     * Opens this CN's sources of an exchange (registering them with the CN's stream, before any sender starts) and returns
     * the source of the pipeline that reads what they receive.
     *
     * @param byCore one morsel per local core, batches tagged with the core; else one morsel per batch
     * @param label  how EXPLAIN names the exchange
     */
    Source register(final Exchange exchange, final RowType rowType, final boolean byCore, final String label) {
        final Topology topology = exchange.topology();
        final int cores = topology.coresPerCn();
        final ExchangeSource[] sources = new ExchangeSource[cores];
        for (int core = 0; core < cores; core++) {
            if (exchange.receives(topology.firstBucketOf(node.cn()) + core)) {
                sources[core] = node.openSource(exchange, core);
            }
        }
        final Received received = new Received(sources);
        exchanges.add(received);
        return new ReceivedSource(rowType, received.done, byCore, label);
    }

    void start() {
        thread.start();
    }

    private void run() {
        final IdleStrategy idle = node.dispatchContext().newIdleStrategy();
        try {
            int open = exchanges.size();
            while (open > 0 && !stopped) {
                int work = 0;
                open = 0;
                for (final Received r : exchanges) {
                    if (!r.done.isDone()) {
                        work += r.poll();
                        open += r.done.isDone() ? 0 : 1;
                    }
                }
                if (work > 0) {
                    idle.reset();
                } else {
                    idle.idle();
                }
            }
        } catch (final Throwable t) {
            failAll(t);
        }
        if (stopped) {
            failAll(new DispatchException("CN " + node.cn() + " stopped receiving: the query was aborted"));
        }
    }

    private void failAll(final Throwable t) {
        for (final Received r : exchanges) {
            r.done.completeExceptionally(t);
        }
    }

    /** Stops the thread and closes every source; exchanges not complete fail. */
    @Override
    public void close() {
        stopped = true;
        try {
            thread.join();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (final Received r : exchanges) {
            CloseHelper.quietCloseAll(r.sources);
        }
    }

    /** One exchange's sources on this CN and the batches they received, per local core. */
    private static final class Received {
        final ExchangeSource[] sources;
        final List<List<Batch>> batches = new ArrayList<>();
        final CompletableFuture<List<List<Batch>>> done = new CompletableFuture<>();

        Received(final ExchangeSource[] sources) {
            this.sources = sources;
            for (int core = 0; core < sources.length; core++) {
                batches.add(new ArrayList<>());
            }
        }

        /** Takes what is ready; completes when every source finished. Returns the batches taken. */
        int poll() {
            int taken = 0;
            boolean finished = true;
            for (int core = 0; core < sources.length; core++) {
                final ExchangeSource source = sources[core];
                if (source == null) {
                    continue;
                }
                Batch batch;
                while (taken < 64 && (batch = source.poll()) != null) {
                    batches.get(core).add(owned(batch).withShuffleIdx(core));
                    taken++;
                }
                finished &= source.isFinished();
            }
            if (finished) {
                for (final ExchangeSource source : sources) {
                    CloseHelper.close(source);
                }
                done.complete(batches);
            }
            return taken;
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
    }
}
