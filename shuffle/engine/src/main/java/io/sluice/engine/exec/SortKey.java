package io.sluice.engine.exec;

/**
 * One ORDER BY term: a column name, its direction and where its NULLs go. Without NULLS FIRST or
 * NULLS LAST, NULLs go last in both directions, as DuckDB orders them by default.
 */
public record SortKey(String column, boolean descending, boolean nullsFirst) {
    /** A term with NULLs last. */
    public SortKey(final String column, final boolean descending) {
        this(column, descending, false);
    }

    /** Ascending order of a column. */
    public static SortKey asc(final String column) {
        return new SortKey(column, false);
    }

    /** Descending order of a column. */
    public static SortKey desc(final String column) {
        return new SortKey(column, true);
    }

    /** This term with NULLs first ({@code true}) or last. */
    public SortKey withNullsFirst(final boolean first) {
        return new SortKey(column, descending, first);
    }

    @Override
    public String toString() {
        return column + (descending ? " DESC" : "") + (nullsFirst ? " NULLS FIRST" : "");
    }
}
