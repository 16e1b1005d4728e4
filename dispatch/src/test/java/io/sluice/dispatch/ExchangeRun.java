package io.sluice.dispatch;

import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.transport.FramePublisher;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Runs one exchange on an embedded cluster: a thread per sending pipeline sends its batches and
 * finishes; the test thread polls every source until all are finished, collecting row ids per bucket.
 */
final class ExchangeRun implements AutoCloseable {
    final EmbeddedCluster cluster;
    final Exchange exchange;
    final Topology topology;
    final ExchangeSource[] sources;
    final List<List<Long>> idsByBucket = new ArrayList<>();
    final AtomicReference<Throwable> senderFailure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    ExchangeRun(final EmbeddedCluster cluster, final Exchange exchange) {
        this.cluster = cluster;
        this.exchange = exchange;
        this.topology = exchange.topology();
        this.sources = new ExchangeSource[topology.bucketCount()];
        for (int b = 0; b < topology.bucketCount(); b++) {
            idsByBucket.add(new ArrayList<>());
            if (exchange.receives(b)) {
                sources[b] = cluster.node(topology.cnOf(b)).openSource(exchange, topology.coreOf(b));
            }
        }
    }

    /** Starts sender (cn, pipeline) on its own thread, sending {@code batches} then finishing. */
    void startSender(final int cn, final int pipeline, final List<Batch> batches) {
        startSender(cn, pipeline, sink -> {
            for (final Batch batch : batches) {
                sink.send(batch);
            }
        });
    }

    /** Starts sender (cn, pipeline) on its own thread: {@code body} sends, then the sink finishes. */
    void startSender(final int cn, final int pipeline, final Consumer<ExchangeSink> body) {
        final ExchangeSink sink = cluster.node(cn).openSink(exchange, pipeline);
        final Thread thread = new Thread(() -> {
            try (sink) {
                body.accept(sink);
                sink.finish();
            } catch (final Throwable t) {
                senderFailure.compareAndSet(null, t);
            }
        }, "sender-cn" + cn + "-p" + pipeline);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    /** Polls every source until all are finished, collecting ids; fails on the first receiver error. */
    void receiveAll(final long timeoutMs) throws InterruptedException {
        final Deadline deadline = Deadline.in(timeoutMs, "every destination of " + exchange.describe() + " to finish");
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (!allFinished()) {
            deadline.check();
            idle.idle(pollOnce());
        }
        joinSenders();
    }

    private boolean allFinished() {
        for (final ExchangeSource source : sources) {
            if (source != null && !source.isFinished()) {
                return false;
            }
        }
        return true;
    }

    /** Polls every source once, collecting ids; fails on a receiver error. Returns the batches taken. */
    int pollOnce() throws InterruptedException {
        if (senderFailure.get() != null) {
            throw new AssertionError("a sender failed", senderFailure.get());
        }
        int work = 0;
        for (final ExchangeSource source : sources) {
            if (source == null) {
                continue;
            }
            final Batch batch;
            try {
                batch = source.poll();
            } catch (final DispatchException e) {
                throw withSenderFailure(e);
            }
            if (batch != null) {
                work++;
                TestBatches.collectIds(batch, idsByBucket.get(source.bucket()));
                batch.release();
            }
        }
        return work;
    }

    /**
     * Waits until every sender thread is parked at once: with nobody receiving, each is then waiting on
     * a full local queue or a back-pressured stream.
     */
    void awaitSendersBlocked(final long timeoutMs) {
        final Deadline deadline = Deadline.in(timeoutMs, "every sender of " + exchange.describe() + " to block");
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (!threads.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING)) {
            deadline.check();
            if (senderFailure.get() != null) {
                throw new AssertionError("a sender failed", senderFailure.get());
            }
            idle.idle();
        }
    }

    /** Polls until the source throws, failing if it finishes or the time runs out first. */
    static DispatchException pollUntilFailure(final ExchangeSource source, final long timeoutMs) {
        final Deadline deadline = Deadline.in(timeoutMs, "bucket " + source.bucket() + " to fail");
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (true) {
            deadline.check();
            try {
                final Batch batch = source.poll();
                if (batch != null) {
                    batch.release();
                } else if (source.isFinished()) {
                    throw new AssertionError("bucket " + source.bucket() + " finished instead of failing");
                }
            } catch (final DispatchException e) {
                return e;
            }
            idle.idle();
        }
    }

    /**
     * A publisher for raw frames from CN {@code from} to CN {@code target}, on the node's shared
     * publication, once that is connected.
     */
    static FramePublisher rawPublisher(final ComputeNode from, final int target) {
        awaitConnected(from, target);
        return from.publisher(target);
    }

    /** Waits until CN {@code from}'s publication to CN {@code target} is connected. */
    static void awaitConnected(final ComputeNode from, final int target) {
        final Deadline deadline = Deadline.in(10_000, "CN " + from.cn() + " to connect to CN " + target);
        while (!from.isConnected(target)) {
            deadline.check();
            Thread.onSpinWait();
        }
    }

    /** Polls CN {@code node}'s stream until {@code done} holds, as its sources would. */
    static void pollStreamUntil(final ComputeNode node, final BooleanSupplier done, final String what) {
        final Deadline deadline = Deadline.in(10_000, what);
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (!done.getAsBoolean()) {
            deadline.check();
            idle.idle(node.demultiplexer().poll());
        }
    }

    /** A receiver's error, with the sender's own exception as the cause when a sender failed. */
    private AssertionError withSenderFailure(final DispatchException e) throws InterruptedException {
        for (final Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        final AssertionError error = new AssertionError("a receiver failed: " + e.getMessage(), senderFailure.get());
        error.addSuppressed(e);
        return error;
    }

    void joinSenders() throws InterruptedException {
        for (final Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
            if (thread.isAlive()) {
                throw new AssertionError(thread.getName() + " did not end");
            }
        }
        if (senderFailure.get() != null) {
            throw new AssertionError("a sender failed", senderFailure.get());
        }
    }

    /** Aeron frames taken by every source. */
    long framesReceived() {
        long frames = 0;
        for (final ExchangeSource source : sources) {
            frames += source == null ? 0 : source.framesReceived();
        }
        return frames;
    }

    @Override
    public void close() {
        for (final Thread thread : threads) {
            thread.interrupt();
        }
        for (final ExchangeSource source : sources) {
            if (source != null) {
                source.close();
            }
        }
        for (int cn = 0; cn < cluster.cnCount(); cn++) {
            cluster.node(cn).closeExchange(exchange);
        }
    }
}
