package io.sluice.dispatch.cluster;

/**
 * A query failed on the cluster: the message is the first cause, naming the CN where it arose (or
 * why the coordinator refused or gave up on the query); {@link #errorType} is the simple class name of
 * the exception behind it there, e.g. {@code ArithmeticException} for an overflow.
 */
public final class QueryFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String errorType;

    public QueryFailedException(final String errorType, final String message) {
        super(message);
        this.errorType = errorType;
    }

    /** The simple class name of the exception that failed the query where it arose. */
    public String errorType() {
        return errorType;
    }
}
