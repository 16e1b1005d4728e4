package io.sluice.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A vector of strings, either plain (offsets + bytes: row {@code i} is
 * {@code bytes[offsets[i] .. offsets[i+1])}) or dictionary-encoded ({@code codes[i]} indexes a
 * plain dictionary vector). Readers that do not care use {@link #offset}, {@link #length} and
 * {@link #bytes}, which resolve the dictionary.
 */
public final class StringVector extends ColumnVector {
    private final int[] offsets;
    private final byte[] bytes;
    private final int[] codes;
    private final StringVector dictionary;

    private StringVector(final int rowCount, final long[] nulls, final int[] offsets, final byte[] bytes,
                         final int[] codes, final StringVector dictionary) {
        super(ColumnType.STRING, rowCount, nulls);
        this.offsets = offsets;
        this.bytes = bytes;
        this.codes = codes;
        this.dictionary = dictionary;
    }

    /**
     * A plain vector; {@code offsets} has at least {@code rowCount + 1} entries.
     *
     * @param offsets  row {@code i} is {@code bytes[offsets[i] .. offsets[i + 1])}; kept without copying
     * @param bytes    the rows' UTF-8 bytes, kept without copying
     * @param rowCount rows in the vector, 0 or more
     * @param nulls    a null bitmap with at least {@code NullMask.words(rowCount)} words, or null
     *                 when no row is null
     * @return the vector
     * @throws IllegalArgumentException when {@code offsets} is too short
     */
    public static StringVector plain(final int[] offsets, final byte[] bytes, final int rowCount, final long[] nulls) {
        if (offsets.length < rowCount + 1) {
            throw new IllegalArgumentException("offsets hold " + offsets.length + " entries, need " + (rowCount + 1));
        }
        return new StringVector(rowCount, nulls, offsets, bytes, null, null);
    }

    /**
     * A dictionary vector: each code indexes a row of {@code dictionary} (a plain vector).
     *
     * @param codes      each row's position in {@code dictionary}, at least {@code rowCount} of them;
     *                   kept without copying
     * @param dictionary the distinct values, a plain vector
     * @param rowCount   rows in the vector, 0 or more
     * @param nulls      a null bitmap with at least {@code NullMask.words(rowCount)} words, or null
     *                   when no row is null
     * @return the vector
     * @throws IllegalArgumentException when {@code dictionary} is itself dictionary-encoded or
     *                                  {@code codes} is too short
     */
    public static StringVector dictionary(final int[] codes, final StringVector dictionary, final int rowCount,
                                          final long[] nulls) {
        if (dictionary.isDictionary()) {
            throw new IllegalArgumentException("a dictionary must be a plain vector");
        }
        if (codes.length < rowCount) {
            throw new IllegalArgumentException("codes hold " + codes.length + " rows, need " + rowCount);
        }
        return new StringVector(rowCount, nulls, null, null, codes, dictionary);
    }

    /**
     * A plain vector of Java strings (null entries become null rows).
     *
     * @param values the rows, encoded as UTF-8; null for a null row
     * @return a plain vector of {@code values.length} rows
     */
    public static StringVector of(final String... values) {
        final long[] nulls = new long[NullMask.words(values.length)];
        boolean anyNull = false;
        final byte[][] encoded = new byte[values.length][];
        int total = 0;
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                NullMask.setNull(nulls, i);
                anyNull = true;
                encoded[i] = new byte[0];
            } else {
                encoded[i] = values[i].getBytes(StandardCharsets.UTF_8);
            }
            total += encoded[i].length;
        }
        final int[] offsets = new int[values.length + 1];
        final byte[] bytes = new byte[total];
        for (int i = 0; i < values.length; i++) {
            System.arraycopy(encoded[i], 0, bytes, offsets[i], encoded[i].length);
            offsets[i + 1] = offsets[i] + encoded[i].length;
        }
        return plain(offsets, bytes, values.length, anyNull ? nulls : null);
    }

    /**
     * Whether the vector is dictionary-encoded.
     *
     * @return true when rows are codes into {@link #dictionary()}
     */
    public boolean isDictionary() {
        return codes != null;
    }

    /**
     * Dictionary codes per row (dictionary vectors only).
     *
     * @return the codes array itself, or null for a plain vector; do not modify
     */
    public int[] codes() {
        return codes;
    }

    /**
     * The dictionary (dictionary vectors only).
     *
     * @return the plain vector of distinct values, or null for a plain vector
     */
    public StringVector dictionary() {
        return dictionary;
    }

    /**
     * Offsets of a plain vector.
     *
     * @return the offsets array itself ({@code rowCount + 1} entries used), or null for a dictionary
     *         vector; do not modify
     */
    public int[] offsets() {
        return offsets;
    }

    /**
     * The byte array that holds a row's bytes (the dictionary's for dictionary vectors).
     *
     * @return the array itself, not a copy; do not modify
     */
    public byte[] bytes() {
        return codes == null ? bytes : dictionary.bytes;
    }

    /**
     * Start of a row's bytes in {@link #bytes()}.
     *
     * @param row the row, 0 to {@link #rowCount()} - 1
     * @return the index of its first byte
     */
    public int offset(final int row) {
        return codes == null ? offsets[row] : dictionary.offsets[codes[row]];
    }

    /**
     * Length in bytes of a row.
     *
     * @param row the row, 0 to {@link #rowCount()} - 1
     * @return its length in UTF-8 bytes
     */
    public int length(final int row) {
        if (codes == null) {
            return offsets[row + 1] - offsets[row];
        }
        final int code = codes[row];
        return dictionary.offsets[code + 1] - dictionary.offsets[code];
    }

    /**
     * A row as a Java string, or null for a null row.
     *
     * @param row the row, 0 to {@link #rowCount()} - 1
     * @return a new string decoded from the row's UTF-8 bytes, or null
     */
    public String getString(final int row) {
        if (isNull(row)) {
            return null;
        }
        return new String(bytes(), offset(row), length(row), StandardCharsets.UTF_8);
    }

    /**
     * Whether a row's bytes equal the given bytes.
     *
     * @param row   the row, 0 to {@link #rowCount()} - 1
     * @param other the bytes to compare with, all of them
     * @return true when the row holds exactly those bytes (nullness is not checked)
     */
    public boolean equalsBytes(final int row, final byte[] other) {
        final int offset = offset(row);
        return Arrays.equals(bytes(), offset, offset + length(row), other, 0, other.length);
    }

    /**
     * Total bytes of all rows' values (resolving the dictionary).
     *
     * @return the sum of {@link #length} over every row
     */
    public long valueBytes() {
        if (codes == null) {
            return (long) offsets[rowCount()] - offsets[0];
        }
        long total = 0;
        for (int i = 0; i < rowCount(); i++) {
            total += length(i);
        }
        return total;
    }

    @Override
    public long key(final int row) {
        return StringKey.of(bytes(), offset(row), length(row));
    }
}
