package io.sluice.engine.exec;

/** One ORDER BY term: a column name and its direction. */
public record SortKey(String column, boolean descending) {
    /** Ascending order of a column. */
    public static SortKey asc(final String column) {
        return new SortKey(column, false);
    }

    /** Descending order of a column. */
    public static SortKey desc(final String column) {
        return new SortKey(column, true);
    }

    @Override
    public String toString() {
        return column + (descending ? " DESC" : "");
    }
}
