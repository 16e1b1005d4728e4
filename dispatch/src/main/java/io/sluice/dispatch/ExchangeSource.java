package io.sluice.dispatch;

import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.transport.FrameHandler;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FrameSubscriber;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

/**
 * The receiving end of one destination (bucket) of an exchange: yields the batches its CN's senders
 * queued locally and those remote senders framed on the bucket's Aeron stream, decoded with the
 * exchange's schema. It is finished once every expected sender has sent end-of-stream exactly once;
 * a duplicate or unexpected end-of-stream, a frame of another query, exchange or bucket, or a
 * sender's ERROR fails it with a {@link DispatchException} naming the sender CN. So does silence:
 * nothing heard for the sender timeout while some end-of-stream is missing. A heartbeat is heard, not
 * received: a sender busy with other destinations sends one (a HEARTBEAT frame from an expected
 * remote sender, or a mark on the local queue) to say it is alive; it is neither a batch nor an
 * end-of-stream, and one from a sender that has already ended is ignored.
 *
 * <p>Lifecycle: {@link #poll} (or {@link #take}) until {@link #isFinished}, then {@link #close}. A
 * consumer that needs no more rows calls {@link #finishEarly}: senders then drop what they would send
 * here instead of waiting on it. Single-threaded: one thread polls a source.
 */
public final class ExchangeSource implements AutoCloseable, FrameHandler {
    private final Exchange exchange;
    private final Topology topology;
    private final int cn;
    private final int bucket;
    private final LocalInbound inbound;
    private final FrameSubscriber subscriber;
    private final BatchCodec codec = new BatchCodec();
    private final ArrayDeque<Batch> decoded = new ArrayDeque<>();
    private final boolean[] expected;
    private final boolean[] eosSeen;
    private final int expectedCount;
    private final int fragmentLimit;
    private final long senderTimeoutNs;
    private final IdleStrategy idleStrategy;
    private final String origin;
    private int eosCount;
    private long lastProgressNs;
    private long framesReceived;
    private long heartbeatsReceived;
    private long batchesReceived;
    private long rowsReceived;
    private DispatchException failure;
    private boolean preferRemote;
    private boolean finishedEarly;
    private boolean closed;

    ExchangeSource(final ComputeNode node, final Exchange exchange, final int bucket, final LocalInbound inbound) {
        this.exchange = exchange;
        this.topology = exchange.topology();
        this.cn = node.cn();
        this.bucket = bucket;
        this.inbound = inbound;
        final int senders = exchange.sendersPerCn();
        this.expected = new boolean[topology.cnCount() * senders];
        this.eosSeen = new boolean[expected.length];
        int count = 0;
        boolean remote = false;
        for (int senderCn = 0; senderCn < topology.cnCount(); senderCn++) {
            if (exchange.expects(cn, senderCn)) {
                for (int p = 0; p < senders; p++) {
                    expected[senderCn * senders + p] = true;
                    count++;
                }
                remote |= senderCn != cn;
            }
        }
        this.expectedCount = count;
        this.subscriber = remote ? node.subscriber(exchange.streamId(bucket)) : null;
        this.fragmentLimit = node.dispatchContext().fragmentLimit();
        this.senderTimeoutNs = node.dispatchContext().senderTimeoutNs();
        this.idleStrategy = node.dispatchContext().newIdleStrategy();
        this.origin = exchange.describe() + " at " + Destination.of(topology, bucket);
        this.lastProgressNs = System.nanoTime();
    }

    /**
     * The next batch, or null when none is ready now (or the source is finished). The batch is the
     * caller's: release it when done.
     *
     * @throws DispatchException when a sender failed, broke the protocol, or fell silent too long
     */
    public Batch poll() {
        if (closed || finishedEarly) {
            return null;
        }
        Batch batch = decoded.poll();
        if (batch == null && failure != null) {
            throw failure;
        }
        // Alternate which side goes first, so a busy local queue never starves the remote senders.
        preferRemote = !preferRemote;
        if (batch == null && preferRemote) {
            batch = pollRemote();
        }
        if (batch == null) {
            batch = pollLocal();
        }
        if (batch == null && !preferRemote) {
            batch = pollRemote();
        }
        final long nowNs = System.nanoTime();
        if (batch != null) {
            lastProgressNs = nowNs;
            batchesReceived++;
            rowsReceived += batch.rowCount();
        } else if (eosCount < expectedCount && nowNs - lastProgressNs > senderTimeoutNs
                && nowNs - inbound.lastHeartbeatNs() > senderTimeoutNs) {
            throw new DispatchException(origin + " heard nothing for " + TimeUnit.NANOSECONDS.toMillis(senderTimeoutNs)
                    + " ms and still waits for end-of-stream from " + missingSenders() + ": check those CNs are"
                    + " alive, or raise " + DispatchContext.SENDER_TIMEOUT_PROP_NAME);
        }
        return batch;
    }

    /** Waits with the idle strategy for the next batch; null once finished. */
    public Batch take() {
        while (true) {
            final Batch batch = poll();
            if (batch != null) {
                idleStrategy.reset();
                return batch;
            }
            if (isFinished()) {
                return null;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new DispatchException("interrupted while " + origin + " waited for batches");
            }
            idleStrategy.idle();
        }
    }

    private Batch pollRemote() {
        if (subscriber == null || eosCount == expectedCount) {
            return null;
        }
        subscriber.poll(this, fragmentLimit);
        final Batch batch = decoded.poll();
        if (batch == null && failure != null) {
            throw failure;
        }
        return batch;
    }

    private Batch pollLocal() {
        Object item;
        while ((item = inbound.poll()) != null) {
            if (item instanceof Batch batch) {
                return batch;
            }
            lastProgressNs = System.nanoTime();
            if (item instanceof EndOfStream eos) {
                onEndOfStream(eos.senderCn(), eos.senderPipeline());
            } else if (item instanceof SenderFailure failure) {
                throw new DispatchException(origin + " received an error from CN " + failure.senderCn() + ": "
                        + failure.message());
            }
        }
        return null;
    }

    @Override
    public void onFrame(final long queryId, final int exchangeId, final int senderCn, final int frameBucket,
            final FrameKind kind, final DirectBuffer buffer, final int offset, final int length) {
        if (kind == FrameKind.HEARTBEAT) {
            heartbeatsReceived++;
        } else {
            framesReceived++;
        }
        if (failure != null) {
            return;
        }
        if (queryId != exchange.queryId() || exchangeId != exchange.exchangeId() || frameBucket != bucket) {
            throw new DispatchException(origin + " received a frame for query " + queryId + " exchange " + exchangeId
                    + " bucket " + frameBucket + " from CN " + senderCn + ": two exchanges share stream "
                    + exchange.streamId(bucket) + "; give concurrent exchanges distinct exchange ids");
        }
        if (senderCn < 0 || senderCn >= topology.cnCount() || senderCn == cn) {
            throw new DispatchException(origin + " received a " + kind + " frame from CN " + senderCn
                    + ", which is not a remote CN of topology " + topology);
        }
        switch (kind) {
            case DATA:
                decoded.add(codec.decode(exchange.schema(), buffer, offset, length, origin, framesReceived));
                break;
            case EOS:
                onEndOfStream(senderCn, pipelineOf(kind, senderCn, buffer, offset, length));
                break;
            case HEARTBEAT:
                if (eosSeen[sender("heartbeat", senderCn, pipelineOf(kind, senderCn, buffer, offset, length))]) {
                    // A sender that has ended says nothing about those still missing.
                    return;
                }
                break;
            case ERROR:
                // Batches that arrived before the error are still handed out first, then poll throws this.
                failure = new DispatchException(origin + " received an error from CN " + senderCn + ": "
                        + buffer.getStringWithoutLengthUtf8(offset, length));
                break;
            default:
                throw new DispatchException(origin + " received a frame of unknown kind " + kind + " from CN " + senderCn);
        }
        lastProgressNs = System.nanoTime();
    }

    /** The sending pipeline an end-of-stream or heartbeat frame carries as its payload. */
    private int pipelineOf(final FrameKind kind, final int senderCn, final DirectBuffer buffer, final int offset,
            final int length) {
        if (length != 4) {
            throw new DispatchException(origin + " received a " + kind + " frame of " + length + " bytes from CN "
                    + senderCn + ", expected 4 (the sending pipeline)");
        }
        return buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
    }

    /** The index of an expected sender in {@link #expected} and {@link #eosSeen}; fails for any other. */
    private int sender(final String what, final int senderCn, final int pipeline) {
        final int senders = exchange.sendersPerCn();
        if (pipeline < 0 || pipeline >= senders || !expected[senderCn * senders + pipeline]) {
            throw new DispatchException(origin + " received an unexpected " + what + " from CN " + senderCn
                    + " pipeline " + pipeline + ": in " + exchange.mode() + " it expects only " + expectedSenders());
        }
        return senderCn * senders + pipeline;
    }

    private void onEndOfStream(final int senderCn, final int pipeline) {
        final int sender = sender("end-of-stream", senderCn, pipeline);
        if (eosSeen[sender]) {
            throw new DispatchException(origin + " received a second end-of-stream from CN " + senderCn + " pipeline "
                    + pipeline + ": a sender ends its stream once per receiver");
        }
        eosSeen[sender] = true;
        eosCount++;
    }

    private String missingSenders() {
        return describeSenders(true);
    }

    private String expectedSenders() {
        return describeSenders(false);
    }

    private String describeSenders(final boolean onlyMissing) {
        final StringBuilder sb = new StringBuilder();
        final int senders = exchange.sendersPerCn();
        for (int s = 0; s < expected.length; s++) {
            if (expected[s] && (!onlyMissing || !eosSeen[s])) {
                sb.append(sb.length() == 0 ? "" : ", ").append("CN ").append(s / senders)
                        .append(" pipeline ").append(s % senders);
            }
        }
        return sb.toString();
    }

    /** Whether every expected sender has ended its stream and every batch has been polled. */
    public boolean isFinished() {
        return finishedEarly || (eosCount == expectedCount && decoded.isEmpty() && inbound.isEmpty());
    }

    /**
     * Stops receiving before the senders are done (a satisfied LIMIT): releases what is queued, and
     * closes the stream so remote senders stop sending here; local senders drop their batches for it.
     */
    public void finishEarly() {
        finishedEarly = true;
        inbound.close();
        for (Batch batch; (batch = decoded.poll()) != null; ) {
            batch.release();
        }
        CloseHelper.close(subscriber);
    }

    /** The bucket this source receives. */
    public int bucket() {
        return bucket;
    }

    /** Frames taken from Aeron so far: data, end-of-stream and error. Zero when every sender is local. */
    public long framesReceived() {
        return framesReceived;
    }

    /** Heartbeat frames taken from Aeron so far, not counted in {@link #framesReceived}. */
    public long heartbeatsReceived() {
        return heartbeatsReceived;
    }

    /** Batches returned so far, local and remote. */
    public long batchesReceived() {
        return batchesReceived;
    }

    /** Rows returned so far, local and remote. */
    public long rowsReceived() {
        return rowsReceived;
    }

    /** End-of-stream still awaited from these senders. */
    public int missingEndOfStreams() {
        return expectedCount - eosCount;
    }

    /** Closes the stream and releases anything not polled. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (!finishedEarly) {
                finishEarly();
            }
        }
    }
}
