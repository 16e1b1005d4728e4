package io.sluice.format.spi;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.Schema;
import io.sluice.format.StoredBlock;
import io.sluice.format.ZoneMap;

/**
 * A table stored as blocks of at most {@link Block#MAX_ROWS} rows, each with a zonemap per column:
 * what Sluice needs from any storage to plan over it and scan it.
 *
 * <p>Planning reads only {@link #schema()}, {@link #blockCount()} and the zonemaps; a scan calls
 * {@link #readBlock} for the blocks it keeps. Implementations must be safe to call from several
 * threads at once, and must answer the same for the same block for as long as a query runs.
 */
public interface BlockTable {
    /**
     * The table's name, as plans refer to it.
     *
     * @return the name a {@link Catalog} finds this table by
     */
    String name();

    /**
     * The columns, in block column order.
     *
     * @return the schema every block of the table has
     */
    Schema schema();

    /**
     * Number of blocks; blocks are numbered from 0.
     *
     * @return the block count, 0 for an empty table
     */
    int blockCount();

    /**
     * Rows in a block.
     *
     * @param block the block's number, 0 to {@link #blockCount()} - 1
     * @return its row count, 0 to {@link Block#MAX_ROWS}
     */
    int blockRowCount(int block);

    /**
     * The zonemap of a column in a block. It must bound the block's values (a wider zonemap than
     * the values only costs pruning and whole-block routing; a narrower one gives wrong answers).
     *
     * @param block  the block's number, 0 to {@link #blockCount()} - 1
     * @param column the column's position in {@link #schema()}
     * @return the zonemap of that column in that block
     */
    ZoneMap zoneMap(int block, int column);

    /**
     * Reads a block: the columns at {@code projection}, in that order (every column, in schema
     * order, when {@code projection} is empty). The block's zonemaps are those of its columns.
     *
     * @param block      the block's number, 0 to {@link #blockCount()} - 1
     * @param projection positions in {@link #schema()} of the columns to read, or none for all
     * @return the block's rows, holding the projected columns
     * @throws io.sluice.format.StorageException when the block cannot be read, naming it
     */
    Block readBlock(int block, int... projection);

    /**
     * Reads columns of a block into vectors a caller reuses from block to block: the allocation-free
     * read of the columns a scan's filters test. {@code vectors[i]} is, on entry, a vector whose arrays
     * may be overwritten (or null) and, on return, column {@code columns[i]} of the block; the caller
     * must no longer use the vector it passed in. The default reads a new block.
     *
     * @param block   the block's number, 0 to {@link #blockCount()} - 1
     * @param columns positions in {@link #schema()} of the columns to read
     * @param vectors as many entries as {@code columns}: vectors to reuse or null, replaced by the columns read
     * @throws io.sluice.format.StorageException when the block cannot be read, naming it
     */
    default void readColumns(final int block, final int[] columns, final ColumnVector[] vectors) {
        final Block read = readBlock(block, columns);
        for (int i = 0; i < columns.length; i++) {
            vectors[i] = read.column(i);
        }
    }

    /**
     * Reads some rows of columns of a block without reading the whole columns, when the table can:
     * what a scan reads of the columns its filters do not test, once they have chosen the rows.
     *
     * @param block   the block's number, 0 to {@link #blockCount()} - 1
     * @param columns positions in {@link #schema()} of the columns to read
     * @param rows    row positions in the block, ascending, each below {@link #blockRowCount}
     * @param count   how many entries of {@code rows} to read
     * @param out     as many entries as {@code columns}: set to vectors of {@code count} rows, row {@code i}
     *                being the block's row {@code rows[i]}
     * @return false (the default) when the table cannot read rows alone and {@code out} is unchanged: the
     *         caller reads the whole columns and picks the rows itself
     * @throws io.sluice.format.StorageException when the block cannot be read, naming it
     */
    default boolean readRows(final int block, final int[] columns, final int[] rows, final int count,
                             final ColumnVector[] out) {
        return false;
    }

    /**
     * The stored bytes of the columns {@link #readBlock} reads for the same arguments, when the table
     * keeps its blocks in the {@link io.sluice.format.BlockLayout}: what dispatch sends instead of
     * encoding a batch that holds exactly those rows and columns. Cheap: it opens nothing until the
     * bytes are copied.
     *
     * @param block      the block's number, 0 to {@link #blockCount()} - 1
     * @param projection positions in {@link #schema()} of the columns read, or none for all
     * @return the stored columns, or null (the default) when the table's blocks are not stored in the
     *         block layout and must be encoded to be sent
     */
    default StoredBlock storedBlock(final int block, final int... projection) {
        return null;
    }

    /**
     * The column rows are sorted by, or null when they are in no known order.
     *
     * @return the sort column's name, or null
     */
    default String sortKey() {
        return null;
    }

    /**
     * The files the blocks lie in, when the table keeps bounds for whole files: pruning rules out a file by
     * those before it reads its blocks' zonemaps.
     *
     * @return the files, or null (the default) when the table keeps no bounds above its blocks'
     */
    default BlockFiles blockFiles() {
        return null;
    }

    /**
     * Total rows.
     *
     * @return the sum of {@link #blockRowCount} over every block
     */
    default long rowCount() {
        long rows = 0;
        for (int b = 0; b < blockCount(); b++) {
            rows += blockRowCount(b);
        }
        return rows;
    }

    /**
     * The zonemaps of one column, one per block in block order.
     *
     * @param column the column's position in {@link #schema()}
     * @return a new array of {@link #blockCount()} zonemaps
     */
    default ZoneMap[] zoneMaps(final int column) {
        final ZoneMap[] result = new ZoneMap[blockCount()];
        for (int b = 0; b < result.length; b++) {
            result[b] = zoneMap(b, column);
        }
        return result;
    }

    /**
     * Statistics the table keeps beyond its zonemaps: the bytes of a table sketch (quantiles, frequent keys
     * and distinct counts per column, in the format of {@code io.sluice.zonemap.TableSketch}), which let the
     * planner see how keys are distributed where the zonemaps cannot (unsorted blocks all span the whole
     * key range). Planning falls back to the zonemaps without them.
     *
     * @return the sketch bytes, or null (the default) when the table has none
     * @throws io.sluice.format.StorageException when the table has statistics that cannot be read, naming them
     */
    default byte[] statistics() {
        return null;
    }
}
