package io.sluice.engine.exec;

import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import java.util.Arrays;
import java.util.List;

/**
 * Copies rows between vectors: gathering selected rows (a negative row index gives a null, as a
 * left join's missing build row) and concatenating vectors into one (a build side or sort input,
 * which may exceed a batch's row limit).
 */
public final class Vectors {
    private Vectors() {
    }

    /** A vector of {@code v}'s rows {@code rows[0..n)}; a negative index yields a null row. */
    public static ColumnVector gather(final ColumnVector v, final int[] rows, final int n) {
        final long[] srcNulls = v.nulls();
        long[] nulls = null;
        for (int i = 0; i < n; i++) {
            final int r = rows[i];
            if (r < 0 || (srcNulls != null && NullMask.isNull(srcNulls, r))) {
                if (nulls == null) {
                    nulls = new long[NullMask.words(n)];
                }
                NullMask.setNull(nulls, i);
            }
        }
        if (v instanceof LongVector l) {
            final long[] src = l.values();
            final long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                final int r = rows[i];
                out[i] = r < 0 ? 0 : src[r];
            }
            return new LongVector(v.type(), out, n, nulls);
        }
        if (v instanceof IntVector iv) {
            final int[] src = iv.values();
            final int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                final int r = rows[i];
                out[i] = r < 0 ? 0 : src[r];
            }
            return new IntVector(v.type(), out, n, nulls);
        }
        if (v instanceof Decimal128Vector d) {
            final long[] srcHigh = d.high();
            final long[] srcLow = d.low();
            final long[] high = new long[n];
            final long[] low = new long[n];
            for (int i = 0; i < n; i++) {
                final int r = rows[i];
                high[i] = r < 0 ? 0 : srcHigh[r];
                low[i] = r < 0 ? 0 : srcLow[r];
            }
            return new Decimal128Vector(v.type(), high, low, n, nulls);
        }
        final StringVector s = (StringVector) v;
        if (s.isDictionary()) {
            final int[] src = s.codes();
            final int[] codes = new int[n];
            for (int i = 0; i < n; i++) {
                final int r = rows[i];
                codes[i] = r < 0 ? 0 : src[r];
            }
            if (s.dictionary().rowCount() == 0) {
                return plainCopy(s, rows, n, nulls);
            }
            return StringVector.dictionary(codes, s.dictionary(), n, nulls);
        }
        return plainCopy(s, rows, n, nulls);
    }

    /**
     * A vector of {@code v}'s rows {@code rows[0..n)}, all of which exist (no negative index): one
     * pass per value array, nulls copied only when the source has some.
     */
    public static ColumnVector gatherPresent(final ColumnVector v, final int[] rows, final int n) {
        final long[] srcNulls = v.nulls();
        long[] nulls = null;
        if (srcNulls != null) {
            for (int i = 0; i < n; i++) {
                if (NullMask.isNull(srcNulls, rows[i])) {
                    if (nulls == null) {
                        nulls = new long[NullMask.words(n)];
                    }
                    NullMask.setNull(nulls, i);
                }
            }
        }
        if (v instanceof LongVector l) {
            final long[] src = l.values();
            final long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = src[rows[i]];
            }
            return new LongVector(v.type(), out, n, nulls);
        }
        if (v instanceof IntVector iv) {
            final int[] src = iv.values();
            final int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                out[i] = src[rows[i]];
            }
            return new IntVector(v.type(), out, n, nulls);
        }
        if (v instanceof Decimal128Vector) {
            return gather(v, rows, n);
        }
        final StringVector s = (StringVector) v;
        if (s.isDictionary() && s.dictionary().rowCount() > 0) {
            final int[] src = s.codes();
            final int[] codes = new int[n];
            for (int i = 0; i < n; i++) {
                codes[i] = src[rows[i]];
            }
            return StringVector.dictionary(codes, s.dictionary(), n, nulls);
        }
        return plainCopy(s, rows, n, nulls);
    }

    private static StringVector plainCopy(final StringVector s, final int[] rows, final int n, final long[] nulls) {
        final int[] offsets = new int[n + 1];
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += rows[i] < 0 ? 0 : s.length(rows[i]);
        }
        final byte[] bytes = new byte[Math.toIntExact(total)];
        final byte[] src = s.bytes();
        int pos = 0;
        for (int i = 0; i < n; i++) {
            final int r = rows[i];
            if (r >= 0) {
                final int len = s.length(r);
                System.arraycopy(src, s.offset(r), bytes, pos, len);
                pos += len;
            }
            offsets[i + 1] = pos;
        }
        return StringVector.plain(offsets, bytes, n, nulls);
    }

    /** The rows {@code [from, to)} of a vector as a new vector. */
    public static ColumnVector slice(final ColumnVector v, final int from, final int to) {
        final int[] rows = new int[to - from];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = from + i;
        }
        return gather(v, rows, rows.length);
    }

    /** One vector holding the rows of all parts in order; all parts have the given type. */
    public static ColumnVector concat(final List<ColumnVector> parts, final ColumnType type) {
        long rows = 0;
        boolean anyNull = false;
        for (final ColumnVector p : parts) {
            rows += p.rowCount();
            anyNull |= p.nullCount() > 0;
        }
        final int n = Math.toIntExact(rows);
        final long[] nulls = anyNull ? new long[NullMask.words(n)] : null;
        if (anyNull) {
            int base = 0;
            for (final ColumnVector p : parts) {
                for (int r = 0; r < p.rowCount(); r++) {
                    if (p.isNull(r)) {
                        NullMask.setNull(nulls, base + r);
                    }
                }
                base += p.rowCount();
            }
        }
        if (type.kind().isLong()) {
            final long[] out = new long[n];
            int base = 0;
            for (final ColumnVector p : parts) {
                System.arraycopy(((LongVector) p).values(), 0, out, base, p.rowCount());
                base += p.rowCount();
            }
            return new LongVector(type, out, n, nulls);
        }
        if (type.kind().isInt()) {
            final int[] out = new int[n];
            int base = 0;
            for (final ColumnVector p : parts) {
                System.arraycopy(((IntVector) p).values(), 0, out, base, p.rowCount());
                base += p.rowCount();
            }
            return new IntVector(type, out, n, nulls);
        }
        if (type.kind() == TypeKind.DECIMAL128) {
            final long[] high = new long[n];
            final long[] low = new long[n];
            int base = 0;
            for (final ColumnVector p : parts) {
                System.arraycopy(((Decimal128Vector) p).high(), 0, high, base, p.rowCount());
                System.arraycopy(((Decimal128Vector) p).low(), 0, low, base, p.rowCount());
                base += p.rowCount();
            }
            return new Decimal128Vector(type, high, low, n, nulls);
        }
        return concatStrings(parts, n, nulls);
    }

    private static StringVector concatStrings(final List<ColumnVector> parts, final int n, final long[] nulls) {
        final StringVector first = parts.isEmpty() ? null : (StringVector) parts.get(0);
        boolean sameDictionary = first != null && first.isDictionary();
        for (final ColumnVector p : parts) {
            sameDictionary &= ((StringVector) p).isDictionary() && ((StringVector) p).dictionary() == first.dictionary();
        }
        if (sameDictionary) {
            final int[] codes = new int[n];
            int base = 0;
            for (final ColumnVector p : parts) {
                System.arraycopy(((StringVector) p).codes(), 0, codes, base, p.rowCount());
                base += p.rowCount();
            }
            return StringVector.dictionary(codes, first.dictionary(), n, nulls);
        }
        long total = 0;
        for (final ColumnVector p : parts) {
            total += ((StringVector) p).valueBytes();
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a string column of " + total + " bytes does not fit one vector:"
                    + " project fewer string columns into the join build or sort input");
        }
        final byte[] bytes = new byte[(int) total];
        final int[] offsets = new int[n + 1];
        int row = 0;
        int pos = 0;
        for (final ColumnVector p : parts) {
            final StringVector s = (StringVector) p;
            final byte[] src = s.bytes();
            for (int r = 0; r < s.rowCount(); r++) {
                final int len = s.length(r);
                System.arraycopy(src, s.offset(r), bytes, pos, len);
                pos += len;
                offsets[++row] = pos;
            }
        }
        return StringVector.plain(offsets, bytes, n, nulls);
    }

    /** An empty vector of a type. */
    public static ColumnVector empty(final ColumnType type) {
        if (type.kind().isLong()) {
            return new LongVector(type, new long[0], 0, null);
        }
        if (type.kind().isInt()) {
            return new IntVector(type, new int[0], 0, null);
        }
        if (type.kind() == TypeKind.DECIMAL128) {
            return new Decimal128Vector(type, new long[0], new long[0], 0, null);
        }
        return StringVector.plain(new int[1], new byte[0], 0, null);
    }

    /**
     * The rows of a batch whose flag is set: the batch itself when all are, null when none is.
     */
    public static io.sluice.shuffle.operator.Batch select(final io.sluice.shuffle.operator.Batch batch,
                                                          final boolean[] keep, final int[] scratch) {
        final int n = batch.rowCount();
        int count = 0;
        for (int i = 0; i < n; i++) {
            scratch[count] = i;
            count += keep[i] ? 1 : 0;
        }
        return select(batch, scratch, count);
    }

    /**
     * The rows of a batch listed, ascending, in the first {@code count} entries of {@code rows}: the batch
     * itself when they are all its rows, null when there are none, else a copy of those rows, in the same
     * order (so still sorted by the batch's sort column) and with the batch's {@code shuffleIdx}.
     */
    public static io.sluice.shuffle.operator.Batch select(final io.sluice.shuffle.operator.Batch batch,
                                                          final int[] rows, final int count) {
        if (count == batch.rowCount()) {
            return batch;
        }
        if (count == 0) {
            return null;
        }
        final ColumnVector[] columns = new ColumnVector[batch.columnCount()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = gatherPresent(batch.column(c), rows, count);
        }
        final io.sluice.shuffle.operator.Batch kept = new io.sluice.shuffle.operator.Batch(columns, null,
                batch.sortedBy());
        return batch.shuffleIdx() == io.sluice.shuffle.operator.Batch.NO_SHUFFLE_IDX ? kept
                : kept.withShuffleIdx(batch.shuffleIdx());
    }

    /** Whether a string row equals another string row (bytes). */
    static boolean sameBytes(final byte[] a, final int ao, final int al, final byte[] b, final int bo, final int bl) {
        if (al != bl) {
            return false;
        }
        if (al <= 16) {
            for (int i = 0; i < al; i++) {
                if (a[ao + i] != b[bo + i]) {
                    return false;
                }
            }
            return true;
        }
        return Arrays.equals(a, ao, ao + al, b, bo, bo + bl);
    }
}
