package io.sluice.engine.exec;

/**
 * A query needed more memory than it may hold: its budget on this CN, or what its CN's pool has left
 * beside the other running queries. The message names the operator, the limit and the setting that
 * raises it. Only the query fails; the CN goes on serving.
 */
public final class MemoryLimitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MemoryLimitException(final String message) {
        super(message);
    }
}
