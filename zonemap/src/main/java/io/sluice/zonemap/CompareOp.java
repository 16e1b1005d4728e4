package io.sluice.zonemap;

/** The comparison operators a {@link Predicate.Comparison} applies between a column and a constant. */
public enum CompareOp {
    /** {@code column = constant}. */
    EQ("="),
    /** {@code column < constant}. */
    LT("<"),
    /** {@code column <= constant}. */
    LE("<="),
    /** {@code column > constant}. */
    GT(">"),
    /** {@code column >= constant}. */
    GE(">=");

    private final String symbol;

    CompareOp(final String symbol) {
        this.symbol = symbol;
    }

    /**
     * The SQL symbol, for display.
     *
     * @return {@code =}, {@code <}, {@code <=}, {@code >} or {@code >=}
     */
    public String symbol() {
        return symbol;
    }
}
