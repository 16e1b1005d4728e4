package io.sluice.format;

/** A vector of INT64 or DECIMAL (scaled) values. */
public final class LongVector extends ColumnVector {
    private final long[] values;

    /**
     * A vector over an existing array, which it keeps without copying.
     *
     * @param type     an INT64 or DECIMAL type
     * @param values   the values, at least {@code rowCount} of them; null rows should hold 0
     * @param rowCount rows in the vector, 0 or more
     * @param nulls    a null bitmap with at least {@code NullMask.words(rowCount)} words, or null
     *                 when no row is null
     * @throws IllegalArgumentException when the type is not int64 or decimal, {@code values} is shorter than
     *                                  {@code rowCount}, or the bitmap is too short
     */
    public LongVector(final ColumnType type, final long[] values, final int rowCount, final long[] nulls) {
        super(type, rowCount, nulls);
        if (!type.kind().isLong()) {
            throw new IllegalArgumentException("a LongVector holds int64 or decimal, not " + type);
        }
        if (values.length < rowCount) {
            throw new IllegalArgumentException("values hold " + values.length + " rows, need " + rowCount);
        }
        this.values = values;
    }

    /**
     * An INT64 vector without nulls.
     *
     * @param values the rows' values, kept without copying
     * @return a vector of {@code values.length} rows
     */
    public static LongVector ofInt64(final long... values) {
        return new LongVector(ColumnType.INT64, values, values.length, null);
    }

    /**
     * The backing array; entries past {@link #rowCount()} are undefined, null rows hold 0.
     *
     * @return the array itself, not a copy; do not modify
     */
    public long[] values() {
        return values;
    }

    /**
     * The value at a row (0 when null).
     *
     * @param row the row, 0 to {@link #rowCount()} - 1
     * @return the row's value, scaled by 10^scale for DECIMAL
     */
    public long get(final int row) {
        return values[row];
    }

    @Override
    public long key(final int row) {
        return values[row];
    }
}
