package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows a query returned, in order, with their column names and types. {@link #value} gives
 * one cell as a Java value for printing and comparing (not for hot loops).
 */
public final class QueryResult {
    private final RowType rowType;
    private final List<Batch> batches;
    private final int[] batchOfRow;
    private final int[] rowInBatch;

    public QueryResult(final RowType rowType, final List<Batch> batches) {
        this.rowType = rowType;
        this.batches = List.copyOf(batches);
        int total = 0;
        for (final Batch b : batches) {
            total += b.rowCount();
        }
        batchOfRow = new int[total];
        rowInBatch = new int[total];
        int row = 0;
        for (int i = 0; i < batches.size(); i++) {
            for (int r = 0; r < batches.get(i).rowCount(); r++) {
                batchOfRow[row] = i;
                rowInBatch[row++] = r;
            }
        }
    }

    /** Column names and types. */
    public RowType rowType() {
        return rowType;
    }

    /** Number of rows. */
    public int rowCount() {
        return batchOfRow.length;
    }

    /** The result's batches, in row order. */
    public List<Batch> batches() {
        return batches;
    }

    /**
     * One cell: Long (integers), BigDecimal (decimals and 128-bit decimals such as sums, at their
     * scale), Double (averages),
     * LocalDate (dates), String, or null.
     */
    public Object value(final int row, final int column) {
        final ColumnVector v = batches.get(batchOfRow[row]).column(column);
        final int r = rowInBatch[row];
        if (v.isNull(r)) {
            return null;
        }
        final DataType t = rowType.type(column);
        return switch (t.kind()) {
            case INT64 -> ((LongVector) v).get(r);
            case INT32 -> (long) ((IntVector) v).get(r);
            case DECIMAL -> BigDecimal.valueOf(((LongVector) v).get(r), t.scale());
            case DECIMAL128 -> ((Decimal128Vector) v).get(r);
            case DOUBLE -> Double.longBitsToDouble(((LongVector) v).get(r));
            case DATE -> LocalDate.ofEpochDay(((IntVector) v).get(r));
            case STRING -> ((StringVector) v).getString(r);
            case BOOLEAN -> ((IntVector) v).get(r) != 0;
        };
    }

    /** All rows as lists of cells (for tests and small results). */
    public List<List<Object>> rows() {
        final List<List<Object>> rows = new ArrayList<>(rowCount());
        for (int r = 0; r < rowCount(); r++) {
            final List<Object> row = new ArrayList<>(rowType.size());
            for (int c = 0; c < rowType.size(); c++) {
                row.add(value(r, c));
            }
            rows.add(row);
        }
        return rows;
    }
}
