package io.sluice.format;

/**
 * The values of one column for up to {@link Block#MAX_ROWS} rows, over primitive arrays so that
 * hot loops read them without boxing. Vectors are immutable once built.
 */
public abstract sealed class ColumnVector permits LongVector, IntVector, StringVector {
    private final ColumnType type;
    private final int rowCount;
    private final long[] nulls;
    private int nullCount = -1;

    /**
     * @param nulls a null bitmap with at least {@code NullMask.words(rowCount)} words, or null
     *              when no row is null
     */
    protected ColumnVector(final ColumnType type, final int rowCount, final long[] nulls) {
        if (rowCount < 0) {
            throw new IllegalArgumentException("row count must not be negative: " + rowCount);
        }
        if (nulls != null && nulls.length < NullMask.words(rowCount)) {
            throw new IllegalArgumentException("null bitmap has " + nulls.length + " words, "
                    + rowCount + " rows need " + NullMask.words(rowCount));
        }
        this.type = type;
        this.rowCount = rowCount;
        this.nulls = nulls;
    }

    /** The column's type. */
    public final ColumnType type() {
        return type;
    }

    /** Number of rows. */
    public final int rowCount() {
        return rowCount;
    }

    /** The null bitmap, or null when the vector has no nulls. Do not modify. */
    public final long[] nulls() {
        return nulls;
    }

    /** Whether a row is null. */
    public final boolean isNull(final int row) {
        return nulls != null && NullMask.isNull(nulls, row);
    }

    /** Number of null rows. */
    public final int nullCount() {
        if (nullCount < 0) {
            nullCount = NullMask.count(nulls, rowCount);
        }
        return nullCount;
    }

    /** The zonemap key of a non-null row: the value for numbers and dates, a prefix key for strings. */
    public abstract long key(int row);
}
