package io.sluice.perf.cli;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;

/**
 * How a server command runs: until SIGTERM or SIGINT (the JVM's shutdown hook closes what it started,
 * in order, so drivers stop and their {@code /dev/shm} directories go), or until the server ends on
 * its own (a refused CN, a CN process that died, a parent process gone), then this thread closes it
 * and the command returns.
 */
final class UntilStopped {
    private final AutoCloseable resources;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread hook;
    private boolean done;

    /** Registers the shutdown hook that closes {@code resources} (close them in the order they must stop). */
    UntilStopped(final AutoCloseable resources) {
        this.resources = resources;
        this.hook = new Thread(this::close, "sluice-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Waits for a signal (then the hook closes everything and the JVM exits) or for {@code ended}, which
     * completes with null when the server simply stopped, or with what went wrong; in that case closes
     * everything here and returns what it completed with.
     */
    String await(final CompletableFuture<String> ended) throws InterruptedException {
        String outcome;
        try {
            outcome = ended.get();
        } catch (final ExecutionException e) {
            outcome = String.valueOf(e.getCause().getMessage());
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException e) {
            // A signal is stopping the JVM: its hook closes everything (what ended is that), then the JVM halts.
            closed.await();
            return null;
        }
        close();
        return outcome;
    }

    private void close() {
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
        }
        try {
            resources.close();
        } catch (final Exception e) {
            System.err.println("sluice: error while stopping: " + e);
        } finally {
            closed.countDown();
        }
    }
}
