package io.sluice.engine.exec;

/**
 * The aggregate functions of {@link HashAggregate}. All but COUNT_STAR skip the rows where their
 * argument is NULL; SUM, AVG, MIN and MAX of a group without a non-NULL input are NULL.
 */
public enum AggregateFunction {
    /** Sum of integers or decimals, accumulated in 128 bits. */
    SUM,
    /** Rows whose argument is not null. */
    COUNT,
    /** All rows. */
    COUNT_STAR,
    /** Distinct non-null values of an integer, decimal or date argument. */
    COUNT_DISTINCT,
    /** Average of integers or decimals, as a double (exact 128-bit sum divided by the count). */
    AVG,
    /** Smallest integer, decimal or date. */
    MIN,
    /** Largest integer, decimal or date. */
    MAX,
    /**
     * Sum of 64-bit integers in 64 bits, 0 for a group without a non-null input, failing on overflow:
     * SQL's SUM0, which adds partial counts (a count's sum is a row count, far from overflowing).
     */
    SUM0,
    /** Sample variance of numbers, a double (NULL for fewer than two values). */
    VAR_SAMP,
    /** Population variance of numbers, a double. */
    VAR_POP,
    /** Sample standard deviation of numbers, a double (NULL for fewer than two values). */
    STDDEV_SAMP,
    /** Population standard deviation of numbers, a double. */
    STDDEV_POP
}
