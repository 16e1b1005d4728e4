package io.sluice.dispatch;

import java.util.concurrent.TimeUnit;

/** Bounded waiting for tests: fails with the name of what was awaited once time runs out. */
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

    void check() {
        if (System.nanoTime() - deadlineNs > 0) {
            throw new AssertionError("timed out waiting for " + what);
        }
    }
}
