package io.sluice.shuffle.exec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs pipelines on a fixed pool of {@code cores} worker threads (morsel-driven: each worker
 * takes the next morsel of the current pipeline until none is left; there is no thread per
 * operator). Pipelines run in dependency order, one at a time, each using all workers.
 */
public final class PipelineExecutor implements AutoCloseable {
    private final int cores;
    private final ExecutorService pool;

    /** A pool of {@code cores} worker threads. */
    public PipelineExecutor(final int cores) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores must be 1 or more, got " + cores);
        }
        this.cores = cores;
        final AtomicInteger ids = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(cores, r -> {
            final Thread t = new Thread(r, "sluice-worker-" + ids.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
    }

    /** Number of worker threads. */
    public int cores() {
        return cores;
    }

    /** Runs the pipelines, each after its dependencies; they must be listed in an order that allows it. */
    public void run(final List<Pipeline> pipelines) {
        final Set<Pipeline> done = new HashSet<>();
        for (final Pipeline p : pipelines) {
            for (final Pipeline dependency : p.dependencies()) {
                if (!done.contains(dependency)) {
                    throw new IllegalStateException(p + " depends on " + dependency
                            + ", which is not listed before it");
                }
            }
            runOne(p);
            done.add(p);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void runOne(final Pipeline pipeline) {
        final Source source = pipeline.source();
        final Sink sink = pipeline.sink();
        final int morsels = source.morselCount();
        final int workers = source.ordered() ? 1 : Math.max(1, Math.min(cores, morsels));
        final AtomicInteger nextMorsel = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Future<?>> futures = new ArrayList<>(workers);
        for (int w = 0; w < workers; w++) {
            futures.add(pool.submit(() -> {
                try {
                    final BatchConsumer local = sink.createLocal();
                    final BatchConsumer head = pipeline.chain(local);
                    final Source.Reader reader = source.openReader();
                    int m;
                    while (failure.get() == null && (m = nextMorsel.getAndIncrement()) < morsels) {
                        reader.produce(m, head);
                    }
                    sink.combine(local);
                } catch (final Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }));
        }
        for (final Future<?> f : futures) {
            try {
                f.get();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(pipeline + " was interrupted", e);
            } catch (final ExecutionException e) {
                failure.compareAndSet(null, e.getCause());
            }
        }
        final Throwable t = failure.get();
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new IllegalStateException(pipeline + " failed: " + t, t);
        }
        sink.finish();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
