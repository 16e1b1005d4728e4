package io.sluice.dispatch;

import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

/**
 * What a destination's remote senders sent it and it has not polled yet, in arrival order: batches
 * and the senders' signals, added by whichever thread polls the CN's stream, taken by the
 * destination's one thread. Counts the batches it holds, which credit bounds.
 */
final class RemoteInbox {
    private final ManyToOneConcurrentLinkedQueue<Object> items = new ManyToOneConcurrentLinkedQueue<>();
    private final AtomicInteger batches = new AtomicInteger();

    void add(final Object item) {
        if (item instanceof RemoteBatch) {
            batches.incrementAndGet();
        }
        items.offer(item);
    }

    /** The oldest item, or null. */
    Object poll() {
        final Object item = items.poll();
        if (item instanceof RemoteBatch) {
            batches.decrementAndGet();
        }
        return item;
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    /** Batches waiting now. */
    int batches() {
        return batches.get();
    }
}
