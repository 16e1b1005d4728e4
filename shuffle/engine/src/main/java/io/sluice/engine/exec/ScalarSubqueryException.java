package io.sluice.engine.exec;

/**
 * A scalar subquery gave more than one row (for one outer key), which SQL makes an error: the query
 * fails rather than pick one of the values.
 */
public final class ScalarSubqueryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param where the subquery, as the plan names it */
    public ScalarSubqueryException(final String where) {
        super("scalar subquery returned more than one row: " + where
                + " (make it return one row, e.g. with an aggregate such as MAX, or a LIMIT 1)");
    }
}
