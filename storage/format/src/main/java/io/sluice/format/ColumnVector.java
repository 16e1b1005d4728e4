package io.sluice.format;

/**
 * The values of one column for up to {@link Block#MAX_ROWS} rows, over primitive arrays so that
 * hot loops read them without boxing. Vectors are immutable once built.
 */
public abstract sealed class ColumnVector permits LongVector, IntVector, StringVector, Decimal128Vector {
    private final ColumnType type;
    private final int rowCount;
    private final long[] nulls;
    private int nullCount = -1;

    /**
     * Sets what every vector has: its type, its row count and its null bitmap.
     *
     * @param type     the column's type; each subclass accepts only the kinds its array holds
     * @param rowCount rows in the vector, 0 or more
     * @param nulls    a null bitmap with at least {@code NullMask.words(rowCount)} words, or null
     *                 when no row is null
     * @throws IllegalArgumentException when {@code rowCount} is negative or the bitmap is too short
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

    /**
     * The column's type.
     *
     * @return the type the vector was built with
     */
    public final ColumnType type() {
        return type;
    }

    /**
     * Number of rows.
     *
     * @return the row count, 0 to {@link Block#MAX_ROWS} for vectors in a block
     */
    public final int rowCount() {
        return rowCount;
    }

    /**
     * The null bitmap, or null when the vector has no nulls. Do not modify.
     *
     * @return the bitmap, one bit per row in the layout of {@link NullMask}, or null
     */
    public final long[] nulls() {
        return nulls;
    }

    /**
     * Whether a row is null.
     *
     * @param row the row, 0 to {@link #rowCount()} - 1
     * @return true when the row is null
     */
    public final boolean isNull(final int row) {
        return nulls != null && NullMask.isNull(nulls, row);
    }

    /**
     * Number of null rows.
     *
     * @return the count of set bits among the first {@link #rowCount()} rows, counted once and kept
     */
    public final int nullCount() {
        if (nullCount < 0) {
            nullCount = NullMask.count(nulls, rowCount);
        }
        return nullCount;
    }

    /**
     * The zonemap key of a non-null row: the value for numbers and dates, a prefix key for strings.
     *
     * @param row the row, 0 to {@link #rowCount()} - 1; a null row's key means nothing
     * @return the key, ordered as {@link TypeKind#compareKeys} orders keys of this column's kind
     */
    public abstract long key(int row);
}
