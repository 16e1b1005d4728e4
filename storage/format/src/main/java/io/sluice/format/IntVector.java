package io.sluice.format;

/** A vector of INT32 or DATE (days since epoch) values. */
public final class IntVector extends ColumnVector {
    private final int[] values;

    /**
     * A vector over an existing array, which it keeps without copying.
     *
     * @param type     an INT32 or DATE type
     * @param values   the values, at least {@code rowCount} of them; null rows should hold 0
     * @param rowCount rows in the vector, 0 or more
     * @param nulls    a null bitmap with at least {@code NullMask.words(rowCount)} words, or null
     *                 when no row is null
     * @throws IllegalArgumentException when the type is not int32 or date, {@code values} is shorter than
     *                                  {@code rowCount}, or the bitmap is too short
     */
    public IntVector(final ColumnType type, final int[] values, final int rowCount, final long[] nulls) {
        super(type, rowCount, nulls);
        if (!type.kind().isInt()) {
            throw new IllegalArgumentException("an IntVector holds int32 or date, not " + type);
        }
        if (values.length < rowCount) {
            throw new IllegalArgumentException("values hold " + values.length + " rows, need " + rowCount);
        }
        this.values = values;
    }

    /**
     * An INT32 vector without nulls.
     *
     * @param values the rows' values, kept without copying
     * @return a vector of {@code values.length} rows
     */
    public static IntVector ofInt32(final int... values) {
        return new IntVector(ColumnType.INT32, values, values.length, null);
    }

    /**
     * The backing array; entries past {@link #rowCount()} are undefined, null rows hold 0.
     *
     * @return the array itself, not a copy; do not modify
     */
    public int[] values() {
        return values;
    }

    /**
     * The value at a row (0 when null).
     *
     * @param row the row, 0 to {@link #rowCount()} - 1
     * @return the row's value, days since 1970-01-01 for DATE
     */
    public int get(final int row) {
        return values[row];
    }

    @Override
    public long key(final int row) {
        return values[row];
    }
}
