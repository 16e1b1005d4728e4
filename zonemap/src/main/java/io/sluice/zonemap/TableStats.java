package io.sluice.zonemap;

import io.sluice.format.Schema;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import java.util.List;

/**
 * A table's statistics from its zonemaps alone (no ANALYZE, no data scan): the row count and a
 * {@link ColumnStats} per column. Built from any {@link BlockTable} of the storage SPI, or from a schema plus
 * per-column zonemap arrays handed in by another storage engine.
 */
public final class TableStats {
    private final Schema schema;
    private final int blockCount;
    private final long rowCount;
    private final ColumnStats[] columns;

    private TableStats(final Schema schema, final int blockCount, final long rowCount, final ColumnStats[] columns) {
        this.schema = schema;
        this.blockCount = blockCount;
        this.rowCount = rowCount;
        this.columns = columns;
    }

    /**
     * Statistics of a stored table, from its zonemap index (no block file is opened).
     *
     * @param table any table of the storage SPI
     * @return the row count and the statistics of every column
     * @throws IllegalArgumentException when the table's zonemaps are inconsistent, as
     *                                  {@link #of(Schema, int, ZoneMap[][])} checks them
     */
    public static TableStats of(final BlockTable table) {
        final ZoneMap[][] byColumn = new ZoneMap[table.schema().size()][];
        for (int c = 0; c < byColumn.length; c++) {
            byColumn[c] = table.zoneMaps(c);
        }
        return of(table.schema(), table.blockCount(), byColumn);
    }

    /**
     * Statistics from zonemaps supplied as a plain library input.
     *
     * @param schema           the table's columns
     * @param blockCount       the table's blocks; 0 for an empty table
     * @param zoneMapsByColumn {@code [column][block]}: one array per schema column in schema order,
     *                         each with exactly {@code blockCount} zonemaps in block order
     * @return the row count and the statistics of every column
     * @throws IllegalArgumentException when zonemaps are absent (null, or empty while there are
     *                                  blocks), their count differs from the block count, the
     *                                  columns disagree on a block's row count, or a zonemap is
     *                                  inconsistent; the message names the column and the rule
     */
    public static TableStats of(final Schema schema, final int blockCount, final ZoneMap[][] zoneMapsByColumn) {
        ZoneMapChecks.requireTable(schema, blockCount, zoneMapsByColumn);
        final ColumnStats[] columns = new ColumnStats[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = ColumnStats.compute(schema.field(c).name(), schema.type(c).kind(), zoneMapsByColumn[c]);
        }
        return new TableStats(schema, blockCount, columns[0].rowCount(), columns);
    }

    /**
     * The table's schema.
     *
     * @return the columns the statistics describe, in order
     */
    public Schema schema() {
        return schema;
    }

    /**
     * Number of blocks the statistics were derived from.
     *
     * @return the block count, 0 for an empty table
     */
    public int blockCount() {
        return blockCount;
    }

    /**
     * Total rows.
     *
     * @return the sum of the block row counts
     */
    public long rowCount() {
        return rowCount;
    }

    /**
     * Statistics of the column at a schema position.
     *
     * @param index the column's position, 0 to {@code schema().size() - 1}
     * @return that column's statistics
     * @throws IndexOutOfBoundsException when there is no such position; the message lists the columns
     */
    public ColumnStats column(final int index) {
        if (index < 0 || index >= columns.length) {
            throw new IndexOutOfBoundsException("column " + index + " of a table with " + columns.length
                    + " columns " + schema.names());
        }
        return columns[index];
    }

    /**
     * Statistics of a named column; the error lists the columns there are.
     *
     * @param name the column's name, matched exactly
     * @return that column's statistics
     * @throws IllegalArgumentException when the table has no such column
     */
    public ColumnStats column(final String name) {
        return columns[schema.require(name)];
    }

    /**
     * Statistics of every column, in schema order.
     *
     * @return an unmodifiable list, one entry per column
     */
    public List<ColumnStats> columns() {
        return List.of(columns);
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("TableStats[").append(rowCount).append(" rows, ")
                .append(blockCount).append(" blocks");
        for (final ColumnStats c : columns) {
            sb.append("; ").append(c);
        }
        return sb.append(']').toString();
    }
}
