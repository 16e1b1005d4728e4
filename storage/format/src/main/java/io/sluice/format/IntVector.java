package io.sluice.format;

/** A vector of INT32 or DATE (days since epoch) values. */
public final class IntVector extends ColumnVector {
    private final int[] values;

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

    /** An INT32 vector without nulls. */
    public static IntVector ofInt32(final int... values) {
        return new IntVector(ColumnType.INT32, values, values.length, null);
    }

    /** The backing array; entries past {@link #rowCount()} are undefined, null rows hold 0. */
    public int[] values() {
        return values;
    }

    /** The value at a row (0 when null). */
    public int get(final int row) {
        return values[row];
    }

    @Override
    public long key(final int row) {
        return values[row];
    }
}
