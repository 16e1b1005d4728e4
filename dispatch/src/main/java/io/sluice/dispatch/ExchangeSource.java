package io.sluice.dispatch;

import io.sluice.engine.exec.Cancellation;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FramePublisher;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The receiving end of one destination (bucket) of an exchange: yields the batches its CN's senders
 * queued locally and those the CN's {@link Demultiplexer} routed to its inbox, decoded with the
 * exchange's schema, granting credit back as it hands them out. It is finished once every expected
 * sender has sent end-of-stream exactly once; a protocol violation, a sender's ERROR or a silent sender
 * fails it with a {@link DispatchException} naming the sender CN.
 *
 * <p>Lifecycle: {@link #poll} (or {@link #take}) until {@link #isFinished}, then {@link #close};
 * {@link #finishEarly} when no more rows are needed. Single-threaded: one thread polls a source.
 * Heartbeats, credit and early finishing in full: {@code dispatch/README.md}.
 */
public final class ExchangeSource implements AutoCloseable {
    private final Exchange exchange;
    private final Topology topology;
    private final int cn;
    private final int bucket;
    private final LocalInbound inbound;
    private final Demultiplexer demultiplexer;
    private final ExchangeCounters counters;
    /** Batches, end-of-streams, heartbeats, failures and violations from remote senders, in arrival order. */
    private final RemoteInbox remote = new RemoteInbox();
    private final boolean[] expected;
    private final boolean[] eosSeen;
    private final int expectedCount;
    /** Per sending CN: DATA frames taken from it, those its ends-of-stream announced, pipelines yet to end. */
    private final long[] dataFramesFrom;
    private final long[] dataFramesAnnounced;
    private final int[] pipelinesToEnd;
    private final boolean remoteExpected;
    private final long senderTimeoutNs;
    private final IdleStrategy idleStrategy;
    private final Cancellation cancellation;
    private final String origin;
    /** A publisher to each remote sending CN for the credit granted back to it; null for others. */
    private final FramePublisher[] creditTo;
    /** Credit consumed and not yet granted back, per sending CN. */
    private final int[] owed;
    private final int grantChunk;
    private final UnsafeBuffer creditPayload = new UnsafeBuffer(new byte[FrameDecoder.CREDIT_PAYLOAD_LENGTH]);
    private int eosCount;
    private long lastProgressNs;
    private boolean polled;
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
        this.demultiplexer = node.demultiplexer();
        this.counters = node.counters(exchange);
        final int senders = exchange.sendersPerCn();
        this.expected = new boolean[topology.cnCount() * senders];
        this.eosSeen = new boolean[expected.length];
        this.dataFramesFrom = new long[topology.cnCount()];
        this.dataFramesAnnounced = new long[topology.cnCount()];
        this.pipelinesToEnd = new int[topology.cnCount()];
        int count = 0;
        boolean remoteSenders = false;
        for (int senderCn = 0; senderCn < topology.cnCount(); senderCn++) {
            if (exchange.expects(cn, senderCn)) {
                for (int p = 0; p < senders; p++) {
                    expected[senderCn * senders + p] = true;
                    count++;
                }
                pipelinesToEnd[senderCn] = senders;
                remoteSenders |= senderCn != cn;
            }
        }
        this.expectedCount = count;
        this.remoteExpected = remoteSenders;
        this.senderTimeoutNs = node.dispatchContext().senderTimeoutNs();
        this.idleStrategy = node.dispatchContext().newIdleStrategy();
        this.cancellation = node.cancellation();
        this.creditTo = new FramePublisher[topology.cnCount()];
        this.owed = new int[topology.cnCount()];
        this.grantChunk = Math.max(1, node.dispatchContext().creditWindow() / 2);
        for (int senderCn = 0; senderCn < topology.cnCount(); senderCn++) {
            if (senderCn != cn && exchange.expects(cn, senderCn)) {
                creditTo[senderCn] = node.publisher(senderCn);
            }
        }
        this.origin = exchange.describe() + " at " + Destination.of(topology, bucket);
        this.lastProgressNs = System.nanoTime();
        // Last: from here on the demultiplexer routes to this source, starting with frames that came early.
        demultiplexer.register(exchange, bucket, remote, counters);
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
        if (failure != null) {
            throw failure;
        }
        if (!polled) {
            // Silence counts from the first poll: a source opened long before its pipeline runs has not
            // been listening, whatever its senders did meanwhile.
            polled = true;
            lastProgressNs = System.nanoTime();
        }
        // Alternate which side goes first, so a busy local queue never starves the remote senders.
        preferRemote = !preferRemote;
        Batch batch = null;
        if (preferRemote) {
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
                && nowNs - inbound.lastHeartbeatNs() > senderTimeoutNs
                && (!remoteExpected || nowNs - demultiplexer.listeningSinceNs() > senderTimeoutNs)) {
            throw fail(new DispatchException(origin + " heard nothing for "
                    + TimeUnit.NANOSECONDS.toMillis(senderTimeoutNs) + " ms and still waits for end-of-stream from "
                    + missingSenders() + ": check those CNs are alive, or raise "
                    + DispatchContext.SENDER_TIMEOUT_PROP_NAME));
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
            cancellation.check();
            idleStrategy.idle();
        }
    }

    /**
     * The next remote batch in the inbox, polling the CN's stream once when the inbox is empty; grants
     * its credit back, and, when the inbox is dry, whatever credit is still owed.
     */
    private Batch pollRemote() {
        Batch batch = takeRemote();
        if (batch == null && eosCount < expectedCount) {
            demultiplexer.poll();
            batch = takeRemote();
        }
        if (batch == null) {
            for (int senderCn = 0; senderCn < owed.length; senderCn++) {
                if (owed[senderCn] > 0) {
                    grant(senderCn);
                }
            }
        }
        return batch;
    }

    /** Sends the credit owed to a sending CN if its publication takes it now; else it stays owed. */
    private void grant(final int senderCn) {
        creditPayload.putInt(0, owed[senderCn], ByteOrder.LITTLE_ENDIAN);
        if (creditTo[senderCn].trySend(exchange.queryId(), exchange.exchangeId(), cn, bucket, FrameKind.CREDIT,
                creditPayload, 0, FrameDecoder.CREDIT_PAYLOAD_LENGTH)) {
            owed[senderCn] = 0;
        }
    }

    /**
     * Tells every remote sending CN this destination wants nothing more (unbounded credit), so none of
     * them waits for credit it would never get. Best effort: a CN that cannot be told now is closed or
     * dead, and its senders stop on their own timeout.
     */
    private void releaseSenders() {
        creditPayload.putInt(0, -1, ByteOrder.LITTLE_ENDIAN);
        for (int senderCn = 0; senderCn < creditTo.length; senderCn++) {
            if (creditTo[senderCn] == null) {
                continue;
            }
            try {
                creditTo[senderCn].send(exchange.queryId(), exchange.exchangeId(), cn, bucket, FrameKind.CREDIT,
                        creditPayload, 0, FrameDecoder.CREDIT_PAYLOAD_LENGTH);
            } catch (final RuntimeException e) {
                counters.onUndeliveredCredit();
            }
        }
    }

    /** Takes from the inbox up to the first batch, handling what comes before it. */
    private Batch takeRemote() {
        Object item;
        while ((item = remote.poll()) != null) {
            if (item instanceof RemoteBatch delivered) {
                framesReceived++;
                dataFramesFrom[delivered.senderCn()]++;
                if (++owed[delivered.senderCn()] >= grantChunk) {
                    grant(delivered.senderCn());
                }
                return delivered.batch();
            }
            if (item instanceof Heartbeat heartbeat) {
                heartbeatsReceived++;
                if (eosSeen[sender("heartbeat", heartbeat.senderCn(), heartbeat.senderPipeline())]) {
                    // A sender that has ended says nothing about those still missing.
                    continue;
                }
            } else {
                framesReceived++;
                if (item instanceof EndOfStream eos) {
                    onEndOfStream(eos);
                } else if (item instanceof SenderFailure failed) {
                    throw fail(new SenderFailedException(origin + " received an error from CN " + failed.senderCn()
                            + ": " + failed.message(), failed.senderCn()));
                } else if (item instanceof DispatchException violation) {
                    throw fail(violation);
                } else {
                    throw fail(new DispatchException(origin + " received " + item + " from its CN's stream,"
                            + " which is neither a batch nor a sender's signal"));
                }
            }
            lastProgressNs = System.nanoTime();
        }
        return null;
    }

    private Batch pollLocal() {
        Object item;
        while ((item = inbound.poll()) != null) {
            if (item instanceof Batch batch) {
                return batch;
            }
            lastProgressNs = System.nanoTime();
            if (item instanceof EndOfStream eos) {
                onEndOfStream(eos);
            } else if (item instanceof SenderFailure failed) {
                throw fail(new SenderFailedException(origin + " received an error from CN " + failed.senderCn()
                        + ": " + failed.message(), failed.senderCn()));
            }
        }
        return null;
    }

    /** Remembers the first failure: every later poll throws it again. */
    private DispatchException fail(final DispatchException e) {
        if (failure == null) {
            failure = e;
        }
        return failure;
    }

    /** The index of an expected sender in {@link #expected} and {@link #eosSeen}; fails for any other. */
    private int sender(final String what, final int senderCn, final int pipeline) {
        final int senders = exchange.sendersPerCn();
        if (pipeline < 0 || pipeline >= senders || !expected[senderCn * senders + pipeline]) {
            throw fail(new DispatchException(origin + " received an unexpected " + what + " from CN " + senderCn
                    + " pipeline " + pipeline + ": in " + exchange.mode() + " it expects only " + expectedSenders()));
        }
        return senderCn * senders + pipeline;
    }

    /**
     * Counts a sender's end; once every pipeline of a remote CN has ended, every DATA frame it sent here
     * came before (each pipeline's frames are in order on its CN's stream), so their count must be what
     * the ends announced.
     */
    private void onEndOfStream(final EndOfStream eos) {
        final int senderCn = eos.senderCn();
        final int pipeline = eos.senderPipeline();
        final int sender = sender("end-of-stream", senderCn, pipeline);
        if (eosSeen[sender]) {
            throw fail(new DispatchException(origin + " received a second end-of-stream from CN " + senderCn
                    + " pipeline " + pipeline + ": a sender ends its stream once per receiver"));
        }
        eosSeen[sender] = true;
        eosCount++;
        if (eos.dataFrames() != EndOfStream.LOCAL) {
            dataFramesAnnounced[senderCn] += eos.dataFrames();
        }
        if (--pipelinesToEnd[senderCn] == 0 && senderCn != cn
                && dataFramesAnnounced[senderCn] != dataFramesFrom[senderCn]) {
            throw fail(new DispatchException(origin + " received " + dataFramesFrom[senderCn] + " of the "
                    + dataFramesAnnounced[senderCn] + " DATA frames CN " + senderCn + " sent it: frames were lost on"
                    + " the way (refused as not sealed for this CN or altered, or dropped as kept too long; see this CN's log)"));
        }
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
        return finishedEarly || (eosCount == expectedCount && remote.isEmpty() && inbound.isEmpty());
    }

    /**
     * Stops receiving before the senders are done (a satisfied LIMIT): releases what is queued. Local
     * senders see their queue closed and drop their batches for it; frames from remote senders, which
     * cannot tell, are dropped by this CN from now on, and those already in the inbox now, all counted.
     */
    public void finishEarly() {
        finishedEarly = true;
        inbound.close();
        demultiplexer.unregister(exchange, bucket);
        long dropped = 0;
        for (Object item; (item = remote.poll()) != null; ) {
            if (item instanceof RemoteBatch delivered) {
                delivered.batch().release();
                dropped++;
            }
        }
        counters.onRemoteDropped(dropped);
        if (eosCount < expectedCount) {
            releaseSenders();
        }
    }

    /** The bucket this source receives. */
    public int bucket() {
        return bucket;
    }

    /**
     * Frames from remote senders taken from the inbox so far: data, end-of-stream, error (and protocol
     * violations). Zero when every sender is local.
     */
    public long framesReceived() {
        return framesReceived;
    }

    /** Heartbeat frames taken from the inbox so far, not counted in {@link #framesReceived}. */
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

    /** Batches remote senders sent that wait in the inbox, not yet polled: at most credit window x remote CNs. */
    public int remoteQueued() {
        return remote.batches();
    }

    /** End-of-stream still awaited from these senders. */
    public int missingEndOfStreams() {
        return expectedCount - eosCount;
    }

    /** Stops routing to this source and releases anything not polled, as {@link #finishEarly} does. */
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
