package io.sluice.dispatch;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The credit one CN's senders hold for the remote destinations of one exchange: per bucket, how many
 * more DATA frames they may send there before its receiver has consumed some. Every bucket starts
 * with the credit window ({@link DispatchContext#creditWindow}); a send takes one, a CREDIT frame from
 * the bucket's CN gives back what it consumed. So at most window x sending CNs batches of an exchange
 * wait in any destination's inbox, however fast the senders and however slow the consumer: a slow
 * consumer slows its senders across the network instead of filling the heap. Credit is per
 * destination, so a full bucket holds up only the senders' batches for that bucket, never another's.
 *
 * <p>A receiver that wants nothing more (finished early, or closed) grants unbounded credit: senders
 * stop waiting for it and its CN drops what they send. Thread-safe: the CN's sending pipelines take
 * credit, the thread polling the CN's stream adds it.
 */
final class ExchangeCredits {
    /** Credit of a destination that wants nothing more: never runs out. */
    static final int UNBOUNDED = Integer.MAX_VALUE / 2;

    private final AtomicIntegerArray credits;
    private final int window;
    private final AtomicLong waits = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    ExchangeCredits(final int bucketCount, final int window) {
        this.credits = new AtomicIntegerArray(bucketCount);
        this.window = window;
        for (int b = 0; b < bucketCount; b++) {
            credits.set(b, window);
        }
    }

    /** Takes one credit of {@code bucket}; false when none is left (the sender must wait). */
    boolean tryAcquire(final int bucket) {
        while (true) {
            final int available = credits.get(bucket);
            if (available <= 0) {
                return false;
            }
            if (available >= UNBOUNDED || credits.compareAndSet(bucket, available, available - 1)) {
                return true;
            }
        }
    }

    /**
     * Credit granted back by the bucket's receiver: {@code count} consumed batches, or unbounded when
     * negative. A grant that would lift the credit above the window (a duplicate or forged frame) is
     * capped there and counted: no receiver can make its senders exceed the window.
     */
    void grant(final int bucket, final int count) {
        if (count < 0) {
            credits.set(bucket, UNBOUNDED);
            return;
        }
        while (true) {
            final int available = credits.get(bucket);
            if (available >= UNBOUNDED) {
                return;
            }
            final long next = (long) available + count;
            if (next > window) {
                refused.incrementAndGet();
            }
            if (credits.compareAndSet(bucket, available, (int) Math.min(next, window))) {
                return;
            }
        }
    }

    /** Credit left for {@code bucket} now. */
    int available(final int bucket) {
        return credits.get(bucket);
    }

    /** A sender found no credit for a bucket and had to wait. */
    void onWait() {
        waits.incrementAndGet();
    }

    /** Times a sender had to wait for credit. */
    long waits() {
        return waits.get();
    }

    /** Grants capped because they would have exceeded the window. */
    long refusedGrants() {
        return refused.get();
    }

    int window() {
        return window;
    }
}
