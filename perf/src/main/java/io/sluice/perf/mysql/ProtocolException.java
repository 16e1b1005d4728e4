package io.sluice.perf.mysql;

/**
 * A packet that breaks the MySQL protocol (truncated, oversized, out of sequence, a field running past
 * its packet): the connection that sent it is closed, and nothing else is touched.
 */
public final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what was wrong, naming the field or packet */
    public ProtocolException(final String message) {
        super(message);
    }
}
