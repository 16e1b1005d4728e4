package io.sluice.dispatch;

import io.sluice.shuffle.operator.Batch;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * The bounded in-process queue of one local destination: the CN's senders offer batches,
 * {@link EndOfStream} and {@link SenderFailure}, the destination's {@link ExchangeSource} polls.
 * A full queue is back pressure (senders wait); it never grows and never drops, except once the
 * destination has finished early and wants nothing more. A sender busy with, or waiting on, other
 * destinations marks it instead with a heartbeat, which takes no slot.
 */
final class LocalInbound {
    private final ManyToOneConcurrentArrayQueue<Object> queue;
    private volatile boolean closed;
    private volatile long lastHeartbeatNs = System.nanoTime();

    LocalInbound(final int capacity) {
        this.queue = new ManyToOneConcurrentArrayQueue<>(capacity);
    }

    boolean offer(final Object item) {
        return queue.offer(item);
    }

    Object poll() {
        return queue.poll();
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** A sender of this CN is alive at {@code nowNs} ({@link System#nanoTime}); any sender's thread. */
    void onHeartbeat(final long nowNs) {
        lastHeartbeatNs = nowNs;
    }

    /** When a sender of this CN last sent a heartbeat here (or when the queue was made, before any). */
    long lastHeartbeatNs() {
        return lastHeartbeatNs;
    }

    /** Whether the destination finished early: senders drop what they would send it. */
    boolean isClosed() {
        return closed;
    }

    /** Marks the destination finished and releases what waits in the queue; on the destination's thread. */
    void close() {
        closed = true;
        drain();
    }

    /** Releases what waits in the queue; on the destination's thread only (single consumer). */
    void drain() {
        Object item;
        while ((item = queue.poll()) != null) {
            if (item instanceof Batch batch) {
                batch.release();
            }
        }
    }
}
