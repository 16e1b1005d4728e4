package io.sluice.engine.exec;

/**
 * The functions a {@link Window} computes over each row's partition: the ranking functions, which
 * read only the row's place among its partition's rows in window order, and the aggregates of
 * {@link AggregateFunction}, computed over the row's {@link WindowFrame}.
 */
public enum WindowFunctionType {
    /** 1, 2, 3, ... through the partition in window order; peers get distinct numbers. */
    ROW_NUMBER(null),
    /** 1 + the number of rows before the row's peers: peers share a rank, gaps follow them. */
    RANK(null),
    /** 1 + the number of distinct peer groups before the row's: no gaps. */
    DENSE_RANK(null),
    SUM(AggregateFunction.SUM),
    /** Rows of the frame whose argument is not null. */
    COUNT(AggregateFunction.COUNT),
    /** All rows of the frame. */
    COUNT_STAR(AggregateFunction.COUNT_STAR),
    AVG(AggregateFunction.AVG),
    MIN(AggregateFunction.MIN),
    MAX(AggregateFunction.MAX);

    private final AggregateFunction aggregate;

    WindowFunctionType(final AggregateFunction aggregate) {
        this.aggregate = aggregate;
    }

    /** The aggregate computed over the frame, or null for a ranking function. */
    public AggregateFunction aggregate() {
        return aggregate;
    }

    /** Whether the function ranks rows (ROW_NUMBER, RANK, DENSE_RANK) rather than aggregating a frame. */
    public boolean ranking() {
        return aggregate == null;
    }
}
