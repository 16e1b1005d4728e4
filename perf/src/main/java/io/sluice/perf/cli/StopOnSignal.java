package io.sluice.perf.cli;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGINT or SIGTERM while a command writes a store: the shutdown hook asks the work to stop
 * ({@link #requested()}), then holds the JVM until the command has removed what it had not finished,
 * said what it kept and released the store's lock ({@link #close()}), for at most {@link #GRACE}.
 */
final class StopOnSignal implements AutoCloseable {
    /** How long a signal waits for the command to clean up before the JVM exits anyway. */
    static final Duration GRACE = Duration.ofSeconds(60);

    private final CountDownLatch cleanedUp = new CountDownLatch(1);
    private final Thread hook = new Thread(this::stop, "sluice-stop-on-signal");
    private volatile boolean requested;

    /** Registers the shutdown hook. */
    StopOnSignal() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private void stop() {
        requested = true;
        try {
            cleanedUp.await(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a signal asked the command to stop. */
    boolean requested() {
        return requested;
    }

    /** Throws {@link CancellationException} once a signal asked to stop: for the writers' progress callbacks. */
    void check() {
        if (requested) {
            throw new CancellationException("stopped by a signal");
        }
    }

    /** The command has cleaned up (and flushed what it printed): the JVM may exit. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException e) {
            // A signal is stopping the JVM: its hook waits for the count-down below.
        } finally {
            cleanedUp.countDown();
        }
    }
}
