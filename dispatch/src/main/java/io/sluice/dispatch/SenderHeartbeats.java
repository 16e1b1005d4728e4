package io.sluice.dispatch;

import io.sluice.transport.FrameKind;
import io.sluice.transport.FramePublisher;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The liveness side of one sending pipeline: at most once per heartbeat interval
 * ({@link DispatchContext#heartbeatIntervalNs}) it tells every receiver the sender has not yet ended
 * that it is alive, so none of them takes a sender busy elsewhere, or waiting, for a dead one. A
 * remote receiver gets a HEARTBEAT frame if its CN's publication takes one at once (a back-pressured
 * one has data waiting, which says as much); a local one gets its queue marked, taking no slot.
 * Single-threaded, like its sink.
 */
final class SenderHeartbeats {
    private final Exchange exchange;
    private final int cn;
    private final LocalInbound[] localByBucket;
    private final FramePublisher[] remoteByBucket;
    /** Receivers the sender has sent end-of-stream or an error: they get no more heartbeats. */
    private final boolean[] ended;
    private final UnsafeBuffer pipelinePayload = new UnsafeBuffer(new byte[FrameDecoder.PIPELINE_PAYLOAD_LENGTH]);
    private final long intervalNs;
    private long lastNs = System.nanoTime();

    SenderHeartbeats(final Exchange exchange, final int cn, final int pipeline, final LocalInbound[] localByBucket,
            final FramePublisher[] remoteByBucket, final long intervalNs) {
        this.exchange = exchange;
        this.cn = cn;
        this.localByBucket = localByBucket;
        this.remoteByBucket = remoteByBucket;
        this.ended = new boolean[localByBucket.length];
        this.intervalNs = intervalNs;
        this.pipelinePayload.putInt(0, pipeline, ByteOrder.LITTLE_ENDIAN);
    }

    /** The 4-byte payload naming the sending pipeline, which end-of-stream frames carry too. */
    UnsafeBuffer pipelinePayload() {
        return pipelinePayload;
    }

    /** The sender has ended its stream to {@code bucket}: no more heartbeats there. */
    void ended(final int bucket) {
        ended[bucket] = true;
    }

    /**
     * Tells every receiver not yet ended, but the one the sender waits on ({@code waitingOnBucket}, or
     * -1), that it is alive; does nothing when the last heartbeat is less than an interval ago.
     */
    void beat(final int waitingOnBucket) {
        final long nowNs = System.nanoTime();
        if (nowNs - lastNs < intervalNs) {
            return;
        }
        lastNs = nowNs;
        for (int b = 0; b < ended.length; b++) {
            if (b == waitingOnBucket || ended[b]) {
                continue;
            }
            if (localByBucket[b] != null) {
                localByBucket[b].onHeartbeat(nowNs);
            } else if (remoteByBucket[b] != null) {
                remoteByBucket[b].trySend(exchange.queryId(), exchange.exchangeId(), cn, b, FrameKind.HEARTBEAT,
                        pipelinePayload, 0, FrameDecoder.PIPELINE_PAYLOAD_LENGTH);
            }
        }
    }
}
