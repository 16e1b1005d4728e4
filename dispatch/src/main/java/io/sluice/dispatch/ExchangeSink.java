package io.sluice.dispatch;

import io.sluice.engine.exec.Cancellation;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.TransportContext;
import io.sluice.transport.TransportException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The dispatch at the end of one sending pipeline: routes each batch by its {@code shuffleIdx} and
 * the exchange's {@link DispatchMode} to its destinations, local ones through their bounded queue
 * (a full queue makes this sender wait, never drops), remote ones as a DATA frame, encoded once,
 * against credit ({@link ExchangeCredits}), on the publication its CN shares to the destination's CN
 * ({@link ComputeNode}). While it waits it sends its other receivers heartbeats ({@link SenderHeartbeats}).
 *
 * <p>Lifecycle: {@link #send} any number of batches, then exactly one of {@link #finish} (end-of-stream
 * to every receiver expecting this sender, also when it sent no rows) or {@link #fail} (an ERROR to
 * each), then {@link #close}. The sink takes ownership of each batch. Single-threaded: one sink per
 * sending pipeline. Memory, liveness and early-finished destinations: {@code dispatch/README.md}.
 */
public final class ExchangeSink implements AutoCloseable {
    private static final int NO_BUCKET = -1;

    private final ComputeNode node;
    private final Exchange exchange;
    private final Topology topology;
    private final int cn;
    private final int pipeline;
    private final Routing routing;
    private final int[] destinations;
    private final LocalInbound[] localByBucket;
    /** This sink's publisher over the node's shared publication to each CN it sends to. */
    private final FramePublisher[] remoteByCn;
    private final FramePublisher[] remoteByBucket;
    private final int maxRemotePayload;
    private final BatchCodec codec;
    private final IdleStrategy idleStrategy;
    private final ExchangeCounters counters;
    /** Credit for the remote destinations; null when this sink sends to none. */
    private final ExchangeCredits credits;
    private final EndOfStream endOfStream;
    /** DATA frames sent to each remote bucket, which its end-of-stream tells it. */
    private final long[] dataFramesSent;
    private final UnsafeBuffer eosPayload = new UnsafeBuffer(new byte[FrameDecoder.EOS_PAYLOAD_LENGTH]);
    private final SenderHeartbeats heartbeats;
    private final Cancellation cancellation;
    private final long stallTimeoutNs;
    /** The remote bucket a send is held up on, which the heartbeats it sends meanwhile skip. */
    private int waitingOn = NO_BUCKET;
    private final Runnable whileWaiting = () -> whileWaiting(waitingOn);
    private boolean finished;
    private boolean failed;
    private boolean closed;

    ExchangeSink(final ComputeNode node, final Exchange exchange, final int pipeline) {
        this.node = node;
        this.exchange = exchange;
        this.topology = exchange.topology();
        this.cn = node.cn();
        this.pipeline = pipeline;
        this.routing = new Routing(exchange, cn, pipeline);
        this.destinations = new int[routing.maxDestinations()];
        this.idleStrategy = node.dispatchContext().newIdleStrategy();
        this.codec = new BatchCodec(node.dispatchContext().sendStored());
        this.counters = node.counters(exchange);
        this.endOfStream = new EndOfStream(cn, pipeline, EndOfStream.LOCAL);
        this.cancellation = node.cancellation();
        this.stallTimeoutNs = node.plane().transportContext().stallTimeoutNs();
        final int buckets = topology.bucketCount();
        this.localByBucket = new LocalInbound[buckets];
        this.dataFramesSent = new long[buckets];
        this.remoteByCn = new FramePublisher[topology.cnCount()];
        this.remoteByBucket = new FramePublisher[buckets];
        boolean anyRemote = false;
        for (int b = 0; b < buckets; b++) {
            final int target = topology.cnOf(b);
            if (!exchange.receives(b) || !exchange.expects(target, cn)) {
                continue;
            }
            if (target == cn) {
                localByBucket[b] = node.inbound(exchange, b);
            } else {
                if (remoteByCn[target] == null) {
                    remoteByCn[target] = node.publisher(target);
                }
                remoteByBucket[b] = remoteByCn[target];
                anyRemote = true;
            }
        }
        this.credits = anyRemote ? node.credits(exchange) : null;
        this.heartbeats = new SenderHeartbeats(exchange, cn, pipeline, localByBucket, remoteByBucket,
                node.dispatchContext().heartbeatIntervalNs());
        int maxPayload = Integer.MAX_VALUE;
        for (final FramePublisher publisher : remoteByCn) {
            maxPayload = publisher == null ? maxPayload : Math.min(maxPayload, publisher.maxPayloadLength());
        }
        this.maxRemotePayload = maxPayload;
    }

    /**
     * Sends one batch to its destinations and takes ownership of it.
     *
     * @throws IllegalArgumentException when the mode needs a {@code shuffleIdx} the batch lacks
     * @throws TransportException       when a remote destination cannot be reached
     */
    public void send(final Batch batch) {
        checkOpen("send");
        // Busy with other destinations, or with empty batches, this sender is alive to the rest too.
        heartbeats.beat(NO_BUCKET);
        final int count;
        try {
            count = routing.route(batch.shuffleIdx(), destinations);
        } catch (final RuntimeException e) {
            batch.release();
            throw e;
        }
        if (batch.rowCount() == 0) {
            batch.release();
            return;
        }
        int locals = 0;
        int remotes = 0;
        for (int i = 0; i < count; i++) {
            if (localByBucket[destinations[i]] != null) {
                locals++;
            } else if (remoteByBucket[destinations[i]] != null) {
                remotes++;
            }
        }
        int encodedLength = -1;
        Batch local = batch;
        try {
            if (remotes > 0 || (locals > 1 && batch.isPooled())) {
                encodedLength = codec.encode(batch);
            }
            if (locals > 1 && batch.isPooled()) {
                // Several local destinations must not share pooled memory one of them releases: give them an
                // owned copy, immutable and shared, and hand the pooled memory back now.
                local = codec.decode(exchange.schema(), codec.buffer(), 0, encodedLength, "local copy", 0);
            }
        } catch (final RuntimeException e) {
            batch.release();
            throw e;
        }
        if (remotes > 0 && encodedLength > maxRemotePayload) {
            splitAndSend(batch, encodedLength);
            return;
        }
        if (local != batch || locals == 0) {
            batch.release();
        }
        final int rows = batch.rowCount();
        final long localBytes = locals == 0 ? 0 : BatchCodec.columnBytes(local);
        for (int i = 0; i < count; i++) {
            final int bucket = destinations[i];
            final LocalInbound inbound = localByBucket[bucket];
            if (inbound != null) {
                if (offer(bucket, local)) {
                    counters.onLocal(bucket, rows, localBytes);
                } else {
                    local.release();
                    counters.onDropped();
                }
            } else if (remoteByBucket[bucket] != null) {
                acquireCredit(bucket);
                publish(bucket, FrameKind.DATA, codec.buffer(), encodedLength);
                dataFramesSent[bucket]++;
                counters.onRemote(bucket, rows, encodedLength, codec.lastWasStored());
            }
        }
    }

    /**
     * A batch too large for one frame goes as two halves, each routed again (and split again if need be):
     * a wide 8192-row batch may exceed the max message of the term length (term / 8).
     */
    private void splitAndSend(final Batch batch, final int encodedLength) {
        final int rows = batch.rowCount();
        if (rows < 2) {
            batch.release();
            throw new IllegalArgumentException("one row of " + encodedLength + " bytes encoded, sent from CN " + cn
                    + " pipeline " + pipeline + " in " + exchange.describe() + ", exceeds the largest frame payload "
                    + maxRemotePayload + ": raise " + TransportContext.TERM_LENGTH_PROP_NAME
                    + " (max message = term length / 8)");
        }
        // As many equal row ranges as the size asks for, with a margin for rows of unequal width;
        // a piece still too large is split again when sent.
        final int pieces = (int) Math.min(rows, 1 + (long) encodedLength * 5 / 4 / maxRemotePayload + 1);
        final Batch[] slices = new Batch[pieces];
        for (int p = 0; p < pieces; p++) {
            slices[p] = BatchSlicer.slice(batch, (int) ((long) rows * p / pieces), (int) ((long) rows * (p + 1) / pieces));
        }
        batch.release();
        counters.onSplit();
        for (final Batch slice : slices) {
            send(slice);
        }
    }

    /** Sends end-of-stream to every receiver that expects this sender, once; also after no rows at all. */
    public void finish() {
        checkOpen("finish");
        finished = true;
        for (int b = 0; b < localByBucket.length; b++) {
            heartbeats.ended(b);
            if (localByBucket[b] != null) {
                offer(b, endOfStream);
            } else if (remoteByBucket[b] != null) {
                eosPayload.putInt(0, pipeline, ByteOrder.LITTLE_ENDIAN);
                eosPayload.putLong(4, dataFramesSent[b], ByteOrder.LITTLE_ENDIAN);
                publish(b, FrameKind.EOS, eosPayload, FrameDecoder.EOS_PAYLOAD_LENGTH);
            }
        }
    }

    /**
     * Tells every receiver this sender failed, naming this CN, the pipeline and the cause, instead of
     * finishing. Receivers throw a {@link DispatchException} with the message.
     */
    public void fail(final Throwable cause) {
        checkOpen("fail");
        failed = true;
        final String message = "sending pipeline " + pipeline + " on CN " + cn + " failed in "
                + exchange.describe() + ": " + cause;
        final SenderFailure failure = new SenderFailure(cn, pipeline, message);
        final UnsafeBuffer payload = new UnsafeBuffer(message.getBytes(StandardCharsets.UTF_8));
        RuntimeException undelivered = null;
        for (int b = 0; b < localByBucket.length; b++) {
            heartbeats.ended(b);
            try {
                if (localByBucket[b] != null) {
                    offer(b, failure);
                } else if (remoteByBucket[b] != null) {
                    publish(b, FrameKind.ERROR, payload, payload.capacity());
                }
            } catch (final RuntimeException e) {
                if (undelivered == null) {
                    undelivered = e;
                } else {
                    undelivered.addSuppressed(e);
                }
            }
        }
        if (undelivered != null) {
            throw new DispatchException("could not tell every receiver of " + exchange.describe() + " that CN " + cn
                    + " pipeline " + pipeline + " failed (" + cause + "); their sender timeout will fail them", undelivered);
        }
    }

    /** Offers to a local queue until it takes the item; false when the destination finished early. */
    private boolean offer(final int bucket, final Object item) {
        final LocalInbound inbound = localByBucket[bucket];
        if (inbound.offer(item)) {
            return true;
        }
        counters.onLocalQueueFull();
        while (!inbound.offer(item)) {
            if (inbound.isClosed()) {
                return false;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new DispatchException("interrupted while CN " + cn + " pipeline " + pipeline
                        + " waited on a full local queue of " + exchange.describe());
            }
            whileWaiting(bucket);
            idleStrategy.idle();
        }
        idleStrategy.reset();
        return true;
    }

    /**
     * Takes one credit for a DATA frame to a remote bucket, waiting while there is none: the bucket's
     * receiver has not yet consumed what this CN sent it.
     *
     * @throws DispatchException   when the query is cancelled, or no credit comes within the stall timeout
     * @throws TransportException  when the bucket's CN no longer receives
     */
    private void acquireCredit(final int bucket) {
        if (credits.tryAcquire(bucket)) {
            return;
        }
        credits.onWait();
        final FramePublisher publisher = remoteByBucket[bucket];
        final long startNs = System.nanoTime();
        long disconnectedSinceNs = 0;
        while (!credits.tryAcquire(bucket)) {
            final long nowNs = System.nanoTime();
            if (nowNs - startNs > stallTimeoutNs) {
                throw new DispatchException("CN " + cn + " pipeline " + pipeline + " got no credit from "
                        + Destination.of(topology, bucket) + " in " + exchange.describe() + " for "
                        + TimeUnit.NANOSECONDS.toMillis(stallTimeoutNs) + " ms: it consumes nothing; check CN "
                        + topology.cnOf(bucket) + ", or raise " + TransportContext.STALL_TIMEOUT_PROP_NAME);
            }
            if (publisher.isConnected()) {
                disconnectedSinceNs = 0;
            } else if (disconnectedSinceNs == 0) {
                disconnectedSinceNs = nowNs;
            } else if (nowNs - disconnectedSinceNs > node.dispatchContext().disconnectTimeoutNs()) {
                throw new TransportException("CN " + cn + " pipeline " + pipeline + " waited for credit from "
                        + Destination.of(topology, bucket) + " in " + exchange.describe() + ", but CN "
                        + topology.cnOf(bucket) + " no longer receives (closed or dead; "
                        + DispatchContext.DISCONNECT_TIMEOUT_PROP_NAME + " says how long a send waits for it)");
            }
            whileWaiting(bucket);
            idleStrategy.idle();
        }
        idleStrategy.reset();
    }

    /**
     * What a waiting sender does on each retry: stops when the query is cancelled, tells its other
     * receivers it is alive, and reads its CN's stream, through which credit comes back.
     */
    private void whileWaiting(final int waitingOnBucket) {
        cancellation.check();
        heartbeats.beat(waitingOnBucket);
        node.demultiplexer().poll();
    }

    /**
     * Sends a frame to a remote bucket on its CN's shared publication, waiting first, the first time
     * any sink of this node sends to that CN, for the publication to connect.
     *
     * @throws TransportException when the CN does not connect within the connect timeout, no longer
     *                            receives, or stalls
     */
    private void publish(final int bucket, final FrameKind kind, final DirectBuffer payload, final int length) {
        final int target = topology.cnOf(bucket);
        final FramePublisher publisher = remoteByBucket[bucket];
        if (!node.isConnected(target)) {
            awaitConnected(bucket, kind);
        }
        waitingOn = bucket;
        try {
            publisher.send(exchange.queryId(), exchange.exchangeId(), cn, bucket, kind, payload, 0, length,
                    whileWaiting);
        } catch (final TransportException e) {
            throw new TransportException("CN " + cn + " pipeline " + pipeline + " could not send " + kind + " to "
                    + Destination.of(topology, bucket) + " in " + exchange.describe()
                    + (publisher.isConnected() ? "" : ": CN " + target + " no longer receives (closed or dead; "
                    + DispatchContext.DISCONNECT_TIMEOUT_PROP_NAME + " says how long a send waits for it)")
                    + ": " + e.getMessage(), e);
        }
    }

    /** Waits, with the transport's connect timeout, for the node's publication to the bucket's CN to connect. */
    private void awaitConnected(final int bucket, final FrameKind kind) {
        final int target = topology.cnOf(bucket);
        final FramePublisher publisher = remoteByBucket[bucket];
        final long timeoutNs = node.connectTimeoutNs();
        final long startNs = System.nanoTime();
        while (!node.isConnected(target)) {
            if (System.nanoTime() - startNs > timeoutNs) {
                throw new TransportException("CN " + cn + " pipeline " + pipeline + " could not send " + kind + " to "
                        + Destination.of(topology, bucket) + " in " + exchange.describe() + ": CN " + target
                        + " did not connect to " + publisher.channel() + " stream " + publisher.streamId() + " within "
                        + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms; check that CN " + target
                        + " is running, or raise " + TransportContext.CONNECT_TIMEOUT_PROP_NAME);
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new DispatchException("interrupted while CN " + cn + " pipeline " + pipeline + " waited for CN "
                        + target + " to connect, to send to " + Destination.of(topology, bucket) + " of "
                        + exchange.describe());
            }
            whileWaiting(bucket);
            idleStrategy.idle();
        }
        idleStrategy.reset();
    }

    private void checkOpen(final String what) {
        if (closed || finished || failed) {
            throw new IllegalStateException("cannot " + what + " on the sink of CN " + cn + " pipeline " + pipeline
                    + " in " + exchange.describe() + ": it has already " + (closed ? "been closed"
                    : finished ? "finished (end-of-stream is sent once)" : "failed"));
        }
    }

    /** Whether {@link #finish} or {@link #fail} has been called. */
    public boolean isDone() {
        return finished || failed;
    }

    public int cn() {
        return cn;
    }

    public int pipeline() {
        return pipeline;
    }

    /**
     * Adds its back-pressure retries to the counters; a sink neither finished nor failed fails its
     * receivers first. The node's publications stay open for its other sinks.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            if (!finished && !failed) {
                fail(new IllegalStateException("the sink was closed before finish()"));
            }
        } finally {
            closed = true;
            long retries = 0;
            for (final FramePublisher publisher : remoteByCn) {
                retries += publisher == null ? 0 : publisher.backPressureRetries();
            }
            counters.onRemoteBackPressure(retries);
        }
    }
}
