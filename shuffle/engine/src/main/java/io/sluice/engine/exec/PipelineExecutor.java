package io.sluice.engine.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs pipelines on worker threads, morsel-driven: each worker takes the next morsel of its
 * pipeline until none is left; there is no thread per operator. A pipeline uses up to {@code cores}
 * workers.
 *
 * <p>Pipelines run in stages, in dependency order. A stage is one pipeline, or pipelines joined by
 * streaming exchanges ({@link Pipeline#streamedFrom}): a receiving pipeline must consume while its
 * senders send, so a stage's pipelines start together and each gets its own workers (producers apart
 * from consumers: a sender blocked on a full destination never holds the thread that would drain
 * it). One stage runs at a time, the first one whose dependencies have all finished, in list order;
 * so every CN compiling the same plan runs the same stages in the same order, and a stage on one CN
 * only ever waits for the same stage on another.
 *
 * <p>A worker out of morsels ends its operators' input in chain order ({@link Operator#endOfInput()}),
 * so that what one pushes then still passes the operators after it, before its local sink state is
 * combined.
 *
 * <p>When a pipeline fails, the run's {@link Cancellation} is set, so the stage's other pipelines
 * (perhaps waiting on an exchange) stop too; the first failure is thrown once all have stopped.
 */
public final class PipelineExecutor implements AutoCloseable {
    private final int cores;
    private final ExecutorService pool;

    /** An executor running each pipeline on up to {@code cores} worker threads. */
    public PipelineExecutor(final int cores) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores must be 1 or more, got " + cores);
        }
        this.cores = cores;
        final AtomicInteger ids = new AtomicInteger();
        this.pool = Executors.newCachedThreadPool(r -> {
            final Thread t = new Thread(r, "sluice-worker-" + ids.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
    }

    /** Workers per pipeline. */
    public int cores() {
        return cores;
    }

    /** Runs the pipelines, each after its dependencies; they must be listed in an order that allows it. */
    public void run(final List<Pipeline> pipelines) {
        run(pipelines, Cancellation.never());
    }

    /**
     * Runs the pipelines stage by stage; stops when {@code cancellation} is set (by a failing pipeline
     * or from outside) and throws the first failure.
     */
    public void run(final List<Pipeline> pipelines, final Cancellation cancellation) {
        run(pipelines, cancellation, null);
    }

    /**
     * As {@link #run(List, Cancellation)}, counting each step's rows and time into {@code profile} (null:
     * no counting).
     */
    public void run(final List<Pipeline> pipelines, final Cancellation cancellation, final PipelineProfile profile) {
        final List<List<Pipeline>> stages = stages(pipelines);
        final Set<Pipeline> done = new HashSet<>();
        while (!stages.isEmpty()) {
            cancellation.check();
            final List<Pipeline> stage = nextReady(stages, done);
            runStage(stage, cancellation, profile);
            done.addAll(stage);
        }
    }

    /**
     * The stages {@link #run} runs, in the order it runs them: pipelines joined by streaming exchanges
     * together, one stage at a time, the first one whose dependencies have all finished.
     */
    public static List<List<Pipeline>> runOrder(final List<Pipeline> pipelines) {
        final List<List<Pipeline>> stages = stages(pipelines);
        final List<List<Pipeline>> order = new ArrayList<>();
        final Set<Pipeline> done = new HashSet<>();
        while (!stages.isEmpty()) {
            final List<Pipeline> stage = nextReady(stages, done);
            order.add(stage);
            done.addAll(stage);
        }
        return order;
    }

    /** Groups pipelines joined by streaming exchanges, in the order of each group's first pipeline. */
    private static List<List<Pipeline>> stages(final List<Pipeline> pipelines) {
        final Map<Pipeline, List<Pipeline>> stageOf = new HashMap<>();
        final Map<List<Pipeline>, Boolean> order = new LinkedHashMap<>();
        final Set<Pipeline> listed = new HashSet<>();
        for (final Pipeline p : pipelines) {
            for (final Pipeline d : p.dependencies()) {
                if (!listed.contains(d)) {
                    throw new IllegalStateException(p + " depends on " + d + ", which is not listed before it");
                }
            }
            List<Pipeline> stage = null;
            for (final Pipeline sender : p.streamedFrom()) {
                final List<Pipeline> senders = stageOf.get(sender);
                if (senders == null) {
                    throw new IllegalStateException(p + " reads the exchange of " + sender
                            + ", which is not listed before it");
                }
                if (stage == null) {
                    stage = senders;
                } else if (stage != senders) {
                    stage.addAll(senders);
                    for (final Pipeline moved : senders) {
                        stageOf.put(moved, stage);
                    }
                    order.remove(senders);
                }
            }
            if (stage == null) {
                stage = new ArrayList<>();
                order.put(stage, Boolean.TRUE);
            }
            stage.add(p);
            stageOf.put(p, stage);
            listed.add(p);
        }
        return new ArrayList<>(order.keySet());
    }

    /** Removes and returns the first stage whose pipelines depend only on pipelines already done. */
    private static List<Pipeline> nextReady(final List<List<Pipeline>> stages, final Set<Pipeline> done) {
        for (int i = 0; i < stages.size(); i++) {
            final List<Pipeline> stage = stages.get(i);
            boolean ready = true;
            for (final Pipeline p : stage) {
                for (final Pipeline d : p.dependencies()) {
                    if (stage.contains(d)) {
                        throw new IllegalStateException(p + " depends on " + d + ", which feeds it through a"
                                + " streaming exchange: the two must run at once");
                    }
                    ready &= done.contains(d);
                }
            }
            if (ready) {
                return stages.remove(i);
            }
        }
        throw new IllegalStateException("no pipeline of " + stages + " can start: their dependencies never finish");
    }

    /** Starts every pipeline of a stage, waits for all, and throws the first failure. */
    private void runStage(final List<Pipeline> stage, final Cancellation cancellation, final PipelineProfile profile) {
        final List<CompletableFuture<Void>> runs = new ArrayList<>(stage.size());
        for (final Pipeline p : stage) {
            final CompletableFuture<Void> run = start(p, cancellation, profile);
            run.whenComplete((ignored, t) -> {
                if (t != null) {
                    cancellation.cancel(asRuntime(t));
                }
            });
            runs.add(run);
        }
        Throwable first = null;
        for (final CompletableFuture<Void> run : runs) {
            try {
                run.get();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                cancellation.cancel(new IllegalStateException("the thread running the query was interrupted", e));
                first = first == null ? e : first;
            } catch (final ExecutionException e) {
                // A pipeline that stopped because another failed reports the cancel: keep the real cause.
                if (first == null || first instanceof QueryCancelledException) {
                    first = e.getCause();
                }
            }
        }
        if (first != null) {
            final Throwable cause = first instanceof QueryCancelledException && cancellation.cause() != null
                    ? cancellation.cause() : first;
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException("pipeline failed: " + cause, cause);
        }
    }

    private static RuntimeException asRuntime(final Throwable t) {
        return t instanceof RuntimeException r ? r : new IllegalStateException(t.toString(), t);
    }

    /**
     * Starts a pipeline's workers; the future completes once every worker has combined its local state
     * and the sink has finished, or with the first failure.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private CompletableFuture<Void> start(final Pipeline pipeline, final Cancellation cancellation,
                                          final PipelineProfile profile) {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final Source source = pipeline.source();
        final Sink sink = pipeline.sink();
        final int morsels;
        try {
            morsels = source.morselCount();
        } catch (final RuntimeException | Error e) {
            done.completeExceptionally(e);
            return done;
        }
        final int workers = source.ordered() ? 1 : Math.max(1, Math.min(cores, morsels));
        final AtomicInteger nextMorsel = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger(workers);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Runnable worker = () -> {
            final int steps = pipeline.operators().size() + 1;
            final long[] rows = profile == null ? null : new long[steps];
            final long[] inclusive = profile == null ? null : new long[steps];
            long producing = 0;
            long combining = 0;
            try {
                final BatchConsumer local = sink.createLocal();
                final Operator[] created = new Operator[steps - 1];
                final BatchConsumer head = profile == null ? pipeline.chain(local, cancellation, created)
                        : pipeline.countedChain(local, cancellation, rows, inclusive, created);
                final Source.Reader reader = source.openReader();
                int m;
                while (failure.get() == null && (m = nextMorsel.getAndIncrement()) < morsels) {
                    cancellation.check();
                    final long start = profile == null ? 0 : System.nanoTime();
                    reader.produce(m, head);
                    producing += profile == null ? 0 : System.nanoTime() - start;
                }
                for (int i = 0; i < created.length && failure.get() == null; i++) {
                    cancellation.check();
                    final long start = profile == null ? 0 : System.nanoTime();
                    created[i].endOfInput();
                    if (profile != null) {
                        // Counted as if the source had pushed into operator i: its own time stays its own.
                        final long took = System.nanoTime() - start;
                        producing += took;
                        for (int s = 0; s <= i; s++) {
                            inclusive[s] += took;
                        }
                    }
                }
                final long start = profile == null ? 0 : System.nanoTime();
                sink.combine(local);
                combining = profile == null ? 0 : System.nanoTime() - start;
            } catch (final Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                if (profile != null) {
                    profile.add(pipeline, stepRows(rows), selfNanos(inclusive, producing, combining));
                }
                if (running.decrementAndGet() == 0) {
                    final long start = System.nanoTime();
                    finish(pipeline, failure.get(), done, profile == null ? null : () -> {
                        final long[] finishing = new long[steps + 1];
                        finishing[steps] = System.nanoTime() - start;
                        profile.add(pipeline, new long[steps + 1], finishing);
                    });
                }
            }
        };
        for (int w = 0; w < workers; w++) {
            pool.execute(worker);
        }
        return done;
    }

    /**
     * A worker's rows per step as {@link PipelineCounters} has them: out of the source, out of each
     * operator, into the sink (each the rows pushed into the step after it).
     */
    private static long[] stepRows(final long[] pushedInto) {
        final long[] out = new long[pushedInto.length + 1];
        System.arraycopy(pushedInto, 0, out, 0, pushedInto.length);
        out[pushedInto.length] = pushedInto[pushedInto.length - 1];
        return out;
    }

    /** A worker's time per step alone, from the time inside each consumer with the steps after it. */
    private static long[] selfNanos(final long[] inclusive, final long producing, final long combining) {
        final int n = inclusive.length;
        final long[] out = new long[n + 1];
        out[0] = producing - inclusive[0];
        for (int s = 0; s < n - 1; s++) {
            out[s + 1] = inclusive[s] - inclusive[s + 1];
        }
        out[n] = inclusive[n - 1] + combining;
        return out;
    }

    private static void finish(final Pipeline pipeline, final Throwable failure, final CompletableFuture<Void> done,
                               final Runnable counted) {
        if (failure != null) {
            done.completeExceptionally(failure);
            return;
        }
        try {
            pipeline.sink().finish();
            for (final OperatorFactory o : pipeline.operators()) {
                o.pipelineFinished();
            }
            if (counted != null) {
                counted.run();
            }
            done.complete(null);
        } catch (final Throwable t) {
            done.completeExceptionally(t);
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
