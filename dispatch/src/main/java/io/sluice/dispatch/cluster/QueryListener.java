package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.QueryStats;

/**
 * Hears about each query a {@link Coordinator} runs, for metrics: when it starts (admitted, shipped to its
 * CNs), finishes with its stats, or fails. Called on the coordinator's thread: it must return at once and
 * never throw.
 */
public interface QueryListener {
    /** A listener that does nothing: the coordinator's default. */
    QueryListener NONE = new QueryListener() {
    };

    /** A query was admitted and its plan sent to its CNs. */
    default void started(final long queryId, final String name) {
    }

    /** A query finished; {@code nanos} from its start, {@code stats} summed over its CNs. */
    default void finished(final long queryId, final long nanos, final QueryStats stats) {
    }

    /** A query that started failed, timed out or was cancelled ({@code errorType} says which). */
    default void failed(final long queryId, final String errorType, final long nanos) {
    }
}
