package io.sluice.engine.exec;

/** Thrown by a pipeline or an exchange wait of a query that was cancelled; its message is the cancel's cause. */
public final class QueryCancelledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public QueryCancelledException(final RuntimeException cause) {
        super(cause.getMessage(), cause);
    }
}
