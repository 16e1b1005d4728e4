package io.sluice.format;

/** A vector of INT64 or DECIMAL (scaled) values. */
public final class LongVector extends ColumnVector {
    private final long[] values;

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

    /** An INT64 vector without nulls. */
    public static LongVector ofInt64(final long... values) {
        return new LongVector(ColumnType.INT64, values, values.length, null);
    }

    /** The backing array; entries past {@link #rowCount()} are undefined, null rows hold 0. */
    public long[] values() {
        return values;
    }

    /** The value at a row (0 when null). */
    public long get(final int row) {
        return values[row];
    }

    @Override
    public long key(final int row) {
        return values[row];
    }
}
