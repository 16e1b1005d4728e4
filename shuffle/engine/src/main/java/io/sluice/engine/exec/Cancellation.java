package io.sluice.engine.exec;

/**
 * The cancel signal of one query on one CN: set once, by a failing pipeline of the query, by the
 * coordinator (its CANCEL) or by the CN losing the coordinator, and checked by every pipeline
 * between batches and by every wait of its exchanges, which then stop with the first cause. A flag,
 * not thread interruption: an interrupt would close the file channels a scan maps blocks through.
 */
public final class Cancellation {
    /** A signal nobody sets: for runs that are never cancelled from outside. */
    public static Cancellation never() {
        return new Cancellation();
    }

    private volatile RuntimeException cause;

    /** Cancels with a cause; later calls keep the first. */
    public void cancel(final RuntimeException why) {
        if (cause == null) {
            synchronized (this) {
                if (cause == null) {
                    cause = why;
                }
            }
        }
    }

    /** Whether {@link #cancel} has been called. */
    public boolean isCancelled() {
        return cause != null;
    }

    /** The first cause, or null. */
    public RuntimeException cause() {
        return cause;
    }

    /**
     * Throws when cancelled: a {@link QueryCancelledException} carrying the cause's message, so every
     * stopped pipeline reports why.
     */
    public void check() {
        final RuntimeException c = cause;
        if (c != null) {
            throw new QueryCancelledException(c);
        }
    }
}
