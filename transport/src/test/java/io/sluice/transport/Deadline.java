package io.sluice.transport;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/** Bounded waiting for tests: does work with an idle strategy until a condition holds or time runs out. */
final class Deadline {
    private final long deadlineNs;
    private final String what;

    private Deadline(final long timeoutMs, final String what) {
        this.deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        this.what = what;
    }

    static Deadline in(final long timeoutMs, final String what) {
        return new Deadline(timeoutMs, what);
    }

    /** Fails the test with the name of what was awaited once the deadline has passed. */
    void check() {
        if (System.nanoTime() - deadlineNs > 0) {
            throw new AssertionError("timed out waiting for " + what);
        }
    }

    /** Runs {@code work} (returning the work done) until {@code done} holds, idling when there was no work. */
    void doWorkUntil(final java.util.function.IntSupplier work, final BooleanSupplier done) {
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (!done.getAsBoolean()) {
            check();
            idle.idle(work.getAsInt());
        }
    }
}
