package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.Session;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Makes SIGINT (CTRL-C) or SIGTERM cancel the queries of a session on every CN: a shutdown hook asks the
 * coordinator to stop them, then waits, a few seconds at most, until this is closed, after the session
 * (open it first in a try-with-resources, so that it closes last): the query has ended and the
 * session's drivers and their directories are gone before the JVM exits.
 */
final class CancelOnStop implements AutoCloseable {
    private static final long WAIT_SECONDS = 10;

    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Session session;
    private final Thread hook = new Thread(this::onStop, "sluice-cancel-on-stop");

    CancelOnStop() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The session whose queries a stop cancels. */
    void cancels(final Session session) {
        this.session = session;
    }

    private void onStop() {
        final Session s = session;
        if (s != null) {
            s.cancelAll("interrupted (SIGINT or SIGTERM)");
        }
        try {
            closed.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException shuttingDown) {
            // The hook runs now; it was waiting for this.
        }
    }
}
