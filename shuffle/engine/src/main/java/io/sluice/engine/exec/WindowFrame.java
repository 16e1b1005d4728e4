package io.sluice.engine.exec;

/**
 * The rows of its partition an aggregate window function reads for each row (ranking functions
 * ignore it). SQL's default frames are {@link #RANGE_TO_CURRENT_ROW} with ORDER BY and
 * {@link #PARTITION} without.
 */
public enum WindowFrame {
    /** RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: up to the row and all its peers (equal order keys). */
    RANGE_TO_CURRENT_ROW,
    /** ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: up to the row itself, in window order. */
    ROWS_TO_CURRENT_ROW,
    /** BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING: the whole partition. */
    PARTITION
}
