package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows a merge sort received, batch after batch, addressed by one index over all of them: the
 * sort key columns are concatenated for the comparator, and each output batch is gathered straight
 * from the received batches, so the other columns are copied once, into the output, rather than
 * concatenated first as a full sort does. Gathering runs over each column's primitive arrays, looked
 * up per batch once per output batch; nothing is allocated per row.
 */
final class RunRows {
    private final List<Batch> batches;
    private final int[] batchOf;
    private final int[] rowOf;

    /** @param batches the received batches, in the order of the index */
    RunRows(final List<Batch> batches) {
        this.batches = List.copyOf(batches);
        int total = 0;
        for (final Batch b : batches) {
            total = Math.addExact(total, b.rowCount());
        }
        this.batchOf = new int[total];
        this.rowOf = new int[total];
        int i = 0;
        for (int b = 0; b < batches.size(); b++) {
            for (int r = 0; r < batches.get(b).rowCount(); r++) {
                batchOf[i] = b;
                rowOf[i++] = r;
            }
        }
    }

    private RunRows(final List<Batch> batches, final int[] batchOf, final int[] rowOf) {
        this.batches = List.copyOf(batches);
        this.batchOf = batchOf;
        this.rowOf = rowOf;
    }

    /**
     * The rows picked from {@code batches} one by one (row {@code i} is row {@code rowOf[i]} of batch
     * {@code batchOf[i]}), indexed in the order picked: what a merge of spilled runs gathers.
     */
    static RunRows picked(final List<Batch> batches, final int[] batchOf, final int[] rowOf, final int count) {
        return new RunRows(batches, java.util.Arrays.copyOf(batchOf, count), java.util.Arrays.copyOf(rowOf, count));
    }

    /** Rows in all. */
    int rowCount() {
        return batchOf.length;
    }

    /**
     * The sort key columns of every row, in index order, at their places among the row type's
     * columns; the other places are null (a comparator reads only the keys).
     */
    ColumnVector[] keyColumns(final RowType type, final List<SortKey> keys) {
        final ColumnVector[] columns = new ColumnVector[type.size()];
        for (final SortKey key : keys) {
            final int c = type.indexOf(key.column());
            columns[c] = concat(c, type.type(c).storage());
        }
        return columns;
    }

    /**
     * The rows {@code order[0 .. count)} as the columns of batches of up to {@link Block#MAX_ROWS}
     * rows, each array with {@code spare} empty places after the row type's columns.
     */
    List<ColumnVector[]> gather(final RowType type, final int[] order, final int count, final int spare) {
        final List<ColumnVector[]> out = new ArrayList<>();
        for (int from = 0; from < count; from += Block.MAX_ROWS) {
            final int n = Math.min(count - from, Block.MAX_ROWS);
            final ColumnVector[] columns = new ColumnVector[type.size() + spare];
            for (int c = 0; c < type.size(); c++) {
                columns[c] = gather(c, type.type(c).storage(), order, from, n);
            }
            out.add(columns);
        }
        return out;
    }

    /** One column of every row, in index order. */
    ColumnVector concat(final int column, final ColumnType type) {
        final List<ColumnVector> parts = new ArrayList<>(batches.size());
        for (final Batch b : batches) {
            parts.add(b.column(column));
        }
        return Vectors.concat(parts, type);
    }

    /** One column of the rows {@code order[from .. from + n)}. */
    ColumnVector gather(final int column, final ColumnType type, final int[] order, final int from, final int n) {
        final int k = batches.size();
        final ColumnVector[] sources = new ColumnVector[k];
        final long[][] sourceNulls = new long[k][];
        boolean anyNull = false;
        for (int b = 0; b < k; b++) {
            sources[b] = batches.get(b).column(column);
            sourceNulls[b] = sources[b].nullCount() > 0 ? sources[b].nulls() : null;
            anyNull |= sourceNulls[b] != null;
        }
        long[] nulls = null;
        if (anyNull) {
            nulls = new long[NullMask.words(n)];
            for (int i = 0; i < n; i++) {
                final int row = order[from + i];
                final long[] src = sourceNulls[batchOf[row]];
                if (src != null && NullMask.isNull(src, rowOf[row])) {
                    NullMask.setNull(nulls, i);
                }
            }
        }
        if (type.kind().isLong()) {
            final long[][] values = new long[k][];
            for (int b = 0; b < k; b++) {
                values[b] = ((LongVector) sources[b]).values();
            }
            final long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                final int row = order[from + i];
                out[i] = values[batchOf[row]][rowOf[row]];
            }
            return new LongVector(type, out, n, nulls);
        }
        if (type.kind().isInt()) {
            final int[][] values = new int[k][];
            for (int b = 0; b < k; b++) {
                values[b] = ((IntVector) sources[b]).values();
            }
            final int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                final int row = order[from + i];
                out[i] = values[batchOf[row]][rowOf[row]];
            }
            return new IntVector(type, out, n, nulls);
        }
        if (type.kind() == TypeKind.DECIMAL128) {
            final long[] high = new long[n];
            final long[] low = new long[n];
            for (int i = 0; i < n; i++) {
                final int row = order[from + i];
                final Decimal128Vector d = (Decimal128Vector) sources[batchOf[row]];
                high[i] = d.high()[rowOf[row]];
                low[i] = d.low()[rowOf[row]];
            }
            return new Decimal128Vector(type, high, low, n, nulls);
        }
        final StringVector[] strings = new StringVector[k];
        for (int b = 0; b < k; b++) {
            strings[b] = (StringVector) sources[b];
        }
        long total = 0;
        for (int i = 0; i < n; i++) {
            final int row = order[from + i];
            total += strings[batchOf[row]].length(rowOf[row]);
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a batch of " + n + " sorted rows holds " + total + " bytes of strings in"
                    + " one column, more than one vector takes: project fewer string columns into the sort");
        }
        final byte[] bytes = new byte[(int) total];
        final int[] offsets = new int[n + 1];
        int pos = 0;
        for (int i = 0; i < n; i++) {
            final int row = order[from + i];
            final StringVector s = strings[batchOf[row]];
            final int r = rowOf[row];
            final int len = s.length(r);
            System.arraycopy(s.bytes(), s.offset(r), bytes, pos, len);
            pos += len;
            offsets[i + 1] = pos;
        }
        return StringVector.plain(offsets, bytes, n, nulls);
    }
}
