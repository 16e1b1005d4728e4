package io.sluice.zonemap;

import io.sluice.format.Block;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.TableStatistics;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A {@link ColumnSketch} per column of a table: built while the table is written (it is the
 * {@link TableStatistics} a writer gathers) or by a scan of a table written without one
 * ({@link #scan}), kept as the table's statistics bytes ({@link BlockTable#statistics()}) and read back
 * column by column as the planner asks ({@link #of}).
 *
 * <p>Bytes: magic, format, column count, then per column its kind, its offset and its length, then each
 * column's sketch; all little-endian.
 */
public final class TableSketch implements TableStatistics {
    private static final int MAGIC = 0x534B5453;
    private static final int FORMAT = 1;
    private static final int HEADER = 12;
    private static final int ENTRY = 12;

    private final Schema schema;
    private final ColumnSketch[] columns;
    private final ByteBuffer bytes;

    private TableSketch(final Schema schema, final ColumnSketch[] columns, final ByteBuffer bytes) {
        this.schema = schema;
        this.columns = columns;
        this.bytes = bytes;
    }

    /**
     * An empty sketch, to fill with {@link #accept}.
     *
     * @param schema the table's columns
     * @return a sketch of every column that has seen no value
     */
    public static TableSketch builder(final Schema schema) {
        final ColumnSketch[] columns = new ColumnSketch[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = ColumnSketch.empty(schema.type(c).kind());
        }
        return new TableSketch(schema, columns, null);
    }

    /**
     * The sketch a table keeps.
     *
     * @param table a table of the storage SPI
     * @return its sketch, or null when it keeps none
     * @throws IllegalArgumentException when the table's statistics are not a table sketch of its schema, naming the table
     */
    public static TableSketch of(final BlockTable table) {
        final byte[] stored = table.statistics();
        if (stored == null) {
            return null;
        }
        final ByteBuffer in = ByteBuffer.wrap(stored).order(ByteOrder.LITTLE_ENDIAN);
        final Schema schema = table.schema();
        if (stored.length < HEADER || in.getInt(0) != MAGIC || in.getInt(4) != FORMAT
                || in.getInt(8) != schema.size() || stored.length < HEADER + ENTRY * schema.size()) {
            throw new IllegalArgumentException("the statistics of table '" + table.name() + "' are not a table sketch"
                    + " of its " + schema.size() + " columns: compute them again with `sluice analyze --tables "
                    + table.name() + "`");
        }
        for (int c = 0; c < schema.size(); c++) {
            if (in.getInt(HEADER + ENTRY * c) != schema.type(c).kind().ordinal()) {
                throw new IllegalArgumentException("the statistics of table '" + table.name() + "' describe column "
                        + schema.field(c).name() + " as another type: compute them again with `sluice analyze --tables "
                        + table.name() + "`");
            }
        }
        return new TableSketch(schema, new ColumnSketch[schema.size()], in);
    }

    /**
     * Sketches a table by reading every block (for a table written without statistics).
     *
     * @param table a table of the storage SPI
     * @return the sketch of every column
     */
    public static TableSketch scan(final BlockTable table) {
        final TableSketch sketch = builder(table.schema());
        for (int b = 0; b < table.blockCount(); b++) {
            sketch.accept(table.readBlock(b));
        }
        return sketch;
    }

    /**
     * The columns sketched.
     *
     * @return the table's schema
     */
    public Schema schema() {
        return schema;
    }

    /**
     * The sketch of a column, read from the bytes at first use.
     *
     * @param c the column's position in {@link #schema()}
     * @return its sketch
     */
    public synchronized ColumnSketch column(final int c) {
        if (columns[c] == null) {
            final int entry = HEADER + ENTRY * c;
            final TypeKind kind = TypeKind.values()[bytes.getInt(entry)];
            final ByteBuffer part = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            part.position(bytes.getInt(entry + 4)).limit(bytes.getInt(entry + 4) + bytes.getInt(entry + 8));
            columns[c] = ColumnSketch.read(kind, part.slice().order(ByteOrder.LITTLE_ENDIAN));
        }
        return columns[c];
    }

    /**
     * The sketch of a column.
     *
     * @param name the column's name
     * @return its sketch
     * @throws IllegalArgumentException when the table has no such column
     */
    public ColumnSketch column(final String name) {
        return column(schema.require(name));
    }

    @Override
    public void accept(final Block block) {
        for (int c = 0; c < columns.length; c++) {
            column(c).update(block.column(c));
        }
    }

    @Override
    public byte[] finish() {
        final byte[][] parts = new byte[columns.length][];
        int length = HEADER + ENTRY * columns.length;
        for (int c = 0; c < columns.length; c++) {
            parts[c] = column(c).toBytes();
            length += parts[c].length;
        }
        final ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(MAGIC).putInt(FORMAT).putInt(columns.length);
        int offset = HEADER + ENTRY * columns.length;
        for (int c = 0; c < columns.length; c++) {
            out.putInt(schema.type(c).kind().ordinal()).putInt(offset).putInt(parts[c].length);
            offset += parts[c].length;
        }
        for (final byte[] part : parts) {
            out.put(part);
        }
        return out.array();
    }
}
