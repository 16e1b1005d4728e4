package io.sluice.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable column that rows are appended to and that is cut into vectors when a block is full. */
public final class ColumnBuilder {
    private final ColumnType type;
    private int size;
    private long[] longs;
    private long[] highs;
    private int[] ints;
    private int[] offsets;
    private byte[] bytes;
    private long[] nulls = new long[NullMask.words(Block.MAX_ROWS)];
    private boolean anyNull;

    /**
     * An empty column with room for {@link Block#MAX_ROWS} rows; it grows past that when needed.
     *
     * @param type the column's type, which decides the append method to use
     */
    public ColumnBuilder(final ColumnType type) {
        this.type = type;
        switch (type.kind()) {
            case INT64, DECIMAL -> longs = new long[Block.MAX_ROWS];
            case DECIMAL128 -> {
                longs = new long[Block.MAX_ROWS];
                highs = new long[Block.MAX_ROWS];
            }
            case INT32, DATE -> ints = new int[Block.MAX_ROWS];
            default -> {
                offsets = new int[Block.MAX_ROWS + 1];
                bytes = new byte[64 * 1024];
            }
        }
    }

    /**
     * The column's type.
     *
     * @return the type the builder was made for
     */
    public ColumnType type() {
        return type;
    }

    /**
     * Rows appended so far.
     *
     * @return the row count since creation or the last {@link #clear()}
     */
    public int size() {
        return size;
    }

    /**
     * Appends an INT64 or DECIMAL (already scaled) value.
     *
     * @param value the value; a decimal scaled by 10^scale
     * @throws IllegalArgumentException when the column is not INT64 or DECIMAL
     */
    public void appendLong(final long value) {
        if (longs == null || highs != null) {
            throw wrongType("a 64-bit value");
        }
        if (size == longs.length) {
            longs = Arrays.copyOf(longs, size * 2);
        }
        longs[size++] = value;
    }

    /**
     * Appends a DECIMAL128 value (already scaled) as its two halves.
     *
     * @param high the signed high 64 bits
     * @param low  the low 64 bits
     * @throws IllegalArgumentException when the column is not DECIMAL128
     */
    public void appendDecimal128(final long high, final long low) {
        if (highs == null) {
            throw wrongType("a 128-bit value");
        }
        if (size == longs.length) {
            longs = Arrays.copyOf(longs, size * 2);
            highs = Arrays.copyOf(highs, size * 2);
        }
        highs[size] = high;
        longs[size++] = low;
    }

    /**
     * Appends an INT32 or DATE (days since epoch) value.
     *
     * @param value the value; a date as days since 1970-01-01
     * @throws IllegalArgumentException when the column is not INT32 or DATE
     */
    public void appendInt(final int value) {
        if (ints == null) {
            throw wrongType("a 32-bit value");
        }
        if (size == ints.length) {
            ints = Arrays.copyOf(ints, size * 2);
        }
        ints[size++] = value;
    }

    /**
     * Appends a string's UTF-8 bytes.
     *
     * @param value  the array holding the bytes, copied
     * @param offset where the string starts in {@code value}
     * @param length the string's length in bytes
     * @throws IllegalArgumentException when the column is not STRING
     */
    public void appendString(final byte[] value, final int offset, final int length) {
        if (offsets == null) {
            throw wrongType("a string");
        }
        if (size + 1 == offsets.length) {
            offsets = Arrays.copyOf(offsets, offsets.length * 2);
        }
        final int end = offsets[size] + length;
        if (end > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(end, bytes.length * 2));
        }
        System.arraycopy(value, offset, bytes, offsets[size], length);
        offsets[++size] = end;
    }

    /**
     * Appends a string.
     *
     * @param value the string, not null, stored as UTF-8
     * @throws IllegalArgumentException when the column is not STRING
     */
    public void appendString(final String value) {
        final byte[] b = value.getBytes(StandardCharsets.UTF_8);
        appendString(b, 0, b.length);
    }

    /** Appends a null. */
    public void appendNull() {
        final int row = size;
        switch (type.kind()) {
            case INT64, DECIMAL -> appendLong(0);
            case DECIMAL128 -> appendDecimal128(0, 0);
            case INT32, DATE -> appendInt(0);
            default -> appendString(bytes, 0, 0);
        }
        if (NullMask.words(row + 1) > nulls.length) {
            nulls = Arrays.copyOf(nulls, nulls.length * 2);
        }
        NullMask.setNull(nulls, row);
        anyNull = true;
    }

    /**
     * Whether a row is null.
     *
     * @param row the row, 0 to {@link #size()} - 1
     * @return true when the row was appended with {@link #appendNull()}
     */
    public boolean isNull(final int row) {
        return anyNull && NullMask.isNull(nulls, row);
    }

    /**
     * Compares two rows by value (nulls first), for sorting.
     *
     * @param a the first row, 0 to {@link #size()} - 1
     * @param b the second row, 0 to {@link #size()} - 1
     * @return negative, zero or positive as row {@code a} orders before, with or after row {@code b};
     *         strings compare by unsigned bytes
     */
    public int compareRows(final int a, final int b) {
        final boolean na = isNull(a);
        final boolean nb = isNull(b);
        if (na || nb) {
            return Boolean.compare(!na, !nb);
        }
        return switch (type.kind()) {
            case INT64, DECIMAL -> Long.compare(longs[a], longs[b]);
            case DECIMAL128 -> Decimal128Vector.compare(highs[a], longs[a], highs[b], longs[b]);
            case INT32, DATE -> Integer.compare(ints[a], ints[b]);
            default -> Arrays.compareUnsigned(bytes, offsets[a], offsets[a + 1], bytes, offsets[b], offsets[b + 1]);
        };
    }

    /**
     * A vector of rows {@code [from, from + count)}.
     *
     * @param from  the first row to take
     * @param count how many rows to take
     * @return a new vector holding copies of those rows
     */
    public ColumnVector build(final int from, final int count) {
        return gather(null, from, count);
    }

    /**
     * A vector of rows {@code rows[from .. from + count)} (or {@code from..} directly when rows is null).
     *
     * @param rows  row numbers to take, in output order, or null to take consecutive rows
     * @param from  the first entry of {@code rows} to use (the first row when {@code rows} is null)
     * @param count how many rows to take
     * @return a new vector holding copies of those rows, in that order
     */
    public ColumnVector gather(final int[] rows, final int from, final int count) {
        long[] vectorNulls = null;
        if (anyNull) {
            vectorNulls = new long[NullMask.words(count)];
            boolean any = false;
            for (int i = 0; i < count; i++) {
                if (NullMask.isNull(nulls, row(rows, from, i))) {
                    NullMask.setNull(vectorNulls, i);
                    any = true;
                }
            }
            if (!any) {
                vectorNulls = null;
            }
        }
        switch (type.kind()) {
            case INT64, DECIMAL -> {
                final long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    values[i] = longs[row(rows, from, i)];
                }
                return new LongVector(type, values, count, vectorNulls);
            }
            case DECIMAL128 -> {
                final long[] high = new long[count];
                final long[] low = new long[count];
                for (int i = 0; i < count; i++) {
                    final int r = row(rows, from, i);
                    high[i] = highs[r];
                    low[i] = longs[r];
                }
                return new Decimal128Vector(type, high, low, count, vectorNulls);
            }
            case INT32, DATE -> {
                final int[] values = new int[count];
                for (int i = 0; i < count; i++) {
                    values[i] = ints[row(rows, from, i)];
                }
                return new IntVector(type, values, count, vectorNulls);
            }
            default -> {
                final int[] vectorOffsets = new int[count + 1];
                int total = 0;
                for (int i = 0; i < count; i++) {
                    final int r = row(rows, from, i);
                    total += offsets[r + 1] - offsets[r];
                    vectorOffsets[i + 1] = total;
                }
                final byte[] vectorBytes = new byte[total];
                for (int i = 0; i < count; i++) {
                    final int r = row(rows, from, i);
                    System.arraycopy(bytes, offsets[r], vectorBytes, vectorOffsets[i], offsets[r + 1] - offsets[r]);
                }
                return StringVector.plain(vectorOffsets, vectorBytes, count, vectorNulls);
            }
        }
    }

    private static int row(final int[] rows, final int from, final int i) {
        return rows == null ? from + i : rows[from + i];
    }

    /** Forgets all rows, keeping the arrays. */
    public void clear() {
        size = 0;
        if (anyNull) {
            Arrays.fill(nulls, 0);
            anyNull = false;
        }
    }

    private IllegalArgumentException wrongType(final String what) {
        return new IllegalArgumentException("cannot append " + what + " to a " + type + " column");
    }
}
