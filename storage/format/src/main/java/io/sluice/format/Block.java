package io.sluice.format;

import java.util.Arrays;

/**
 * Up to {@link #MAX_ROWS} rows of a table, column by column, with a zonemap per column. A block
 * read with a projection holds only the projected columns, in projection order.
 *
 * @param rowCount rows in the block, 0 to {@link #MAX_ROWS}
 * @param columns  the column vectors, each holding {@code rowCount} rows
 * @param zoneMaps the zonemap of each column, in column order
 */
public record Block(int rowCount, ColumnVector[] columns, ZoneMap[] zoneMaps) {
    /** Most rows a block or batch holds. */
    public static final int MAX_ROWS = 8192;

    /**
     * Checks that the columns and zonemaps fit together.
     *
     * @param rowCount rows in the block, 0 to {@link #MAX_ROWS}
     * @param columns  the column vectors, each holding {@code rowCount} rows
     * @param zoneMaps the zonemap of each column, as many as there are columns
     * @throws IllegalArgumentException when the row count is out of range, the counts of columns
     *                                  and zonemaps differ, or a column has another row count
     */
    public Block {
        if (rowCount < 0 || rowCount > MAX_ROWS) {
            throw new IllegalArgumentException("a block holds 0.." + MAX_ROWS + " rows, got " + rowCount);
        }
        if (columns.length != zoneMaps.length) {
            throw new IllegalArgumentException(columns.length + " columns but " + zoneMaps.length + " zonemaps");
        }
        for (int i = 0; i < columns.length; i++) {
            if (columns[i].rowCount() != rowCount) {
                throw new IllegalArgumentException("column " + i + " has " + columns[i].rowCount()
                        + " rows, the block " + rowCount);
            }
        }
    }

    /**
     * A block whose zonemaps are computed from its columns.
     *
     * @param columns vectors of equal row count (at most {@link #MAX_ROWS}); none gives an empty block
     * @return a block of those vectors, not copied
     */
    public static Block of(final ColumnVector... columns) {
        final int rows = columns.length == 0 ? 0 : columns[0].rowCount();
        final ZoneMap[] zoneMaps = new ZoneMap[columns.length];
        for (int i = 0; i < columns.length; i++) {
            zoneMaps[i] = ZoneMap.of(columns[i]);
        }
        return new Block(rows, columns, zoneMaps);
    }

    /**
     * The column at a position.
     *
     * @param index position in this block's columns, from 0
     * @return the vector at that position
     */
    public ColumnVector column(final int index) {
        return columns[index];
    }

    /**
     * The columns at {@code projection}, in that order, with their zonemaps (this block itself when
     * {@code projection} is empty): what {@link io.sluice.format.spi.BlockTable#readBlock} returns
     * for a table that holds whole blocks.
     *
     * @param projection column positions in this block
     * @return a block of those columns, sharing their vectors
     */
    public Block project(final int... projection) {
        if (projection.length == 0) {
            return this;
        }
        final ColumnVector[] projected = new ColumnVector[projection.length];
        final ZoneMap[] projectedZoneMaps = new ZoneMap[projection.length];
        for (int i = 0; i < projection.length; i++) {
            final int c = projection[i];
            if (c < 0 || c >= columns.length) {
                throw new IndexOutOfBoundsException("column " + c + " of a block with " + columns.length + " columns");
            }
            projected[i] = columns[c];
            projectedZoneMaps[i] = zoneMaps[c];
        }
        return new Block(rowCount, projected, projectedZoneMaps);
    }

    @Override
    public String toString() {
        return "Block[rows=" + rowCount + ", columns=" + columns.length + ", zoneMaps=" + Arrays.toString(zoneMaps) + "]";
    }
}
