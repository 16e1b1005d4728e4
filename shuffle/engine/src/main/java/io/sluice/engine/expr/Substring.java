package io.sluice.engine.expr;

import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;

/**
 * {@code SUBSTRING(value FROM start FOR length)}: the characters of a string from position
 * {@code start} (1 is the first), at most {@code length} of them (UTF-8 aware). A
 * dictionary-encoded input is cut once per dictionary entry and keeps its codes. NULL stays NULL.
 */
public record Substring(Expr value, int start, int length) implements Expr {
    public Substring {
        if (start < 1 || length < 0) {
            throw new IllegalArgumentException("SUBSTRING(... FROM " + start + " FOR " + length
                    + "): start must be 1 or more and length 0 or more");
        }
    }

    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator v = value.bind(input);
        if (v.type().kind() != DataType.Kind.STRING) {
            throw new IllegalArgumentException(this + ": " + value + " has type " + v.type() + ", expected a string");
        }
        return new Evaluator(DataType.STRING) {
            private StringVector cachedDictionary;
            private StringVector cutDictionary;

            @Override
            public StringVector strings(final Batch batch) {
                final StringVector in = v.strings(batch);
                if (in.isDictionary()) {
                    if (in.dictionary() != cachedDictionary) {
                        cachedDictionary = in.dictionary();
                        cutDictionary = cut(cachedDictionary, cachedDictionary.rowCount());
                    }
                    return StringVector.dictionary(in.codes(), cutDictionary, batch.rowCount(), in.nulls());
                }
                return cut(in, batch.rowCount());
            }

            @Override
            public long[] nulls(final Batch batch) {
                return v.nulls(batch);
            }

            @Override
            public String toString() {
                return Substring.this.toString();
            }
        };
    }

    private StringVector cut(final StringVector in, final int rows) {
        final byte[] bytes = in.bytes();
        final int[] offsets = new int[rows + 1];
        final byte[] out = new byte[(int) Math.min(Integer.MAX_VALUE, in.valueBytes())];
        int size = 0;
        for (int r = 0; r < rows; r++) {
            final int from = in.offset(r);
            final int end = from + in.length(r);
            final int begin = skipCharacters(bytes, from, end, start - 1);
            final int stop = skipCharacters(bytes, begin, end, length);
            System.arraycopy(bytes, begin, out, size, stop - begin);
            size += stop - begin;
            offsets[r + 1] = size;
        }
        return StringVector.plain(offsets, out, rows, in.nulls());
    }

    /** The byte position {@code count} UTF-8 characters after {@code from}, at most {@code end}. */
    private static int skipCharacters(final byte[] bytes, final int from, final int end, final int count) {
        int pos = from;
        for (int c = 0; c < count && pos < end; c++) {
            pos++;
            while (pos < end && (bytes[pos] & 0xC0) == 0x80) {
                pos++;
            }
        }
        return pos;
    }

    @Override
    public String toString() {
        return "SUBSTRING(" + value + " FROM " + start + " FOR " + length + ")";
    }
}
