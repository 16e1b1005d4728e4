package io.sluice.storage;

import io.sluice.format.BlockProjection;
import io.sluice.format.StoredBlock;
import org.agrona.MutableDirectBuffer;

/**
 * The columns a scan read of one block of a {@link Table}, as they lie in the block's file: copied
 * from the mapping, through the table's {@link BlockFileCache}, only when a batch of them is sent
 * (the file read a moment before is usually still open, so that costs no open). Holds no mapping
 * meanwhile. The file is read-only and its version fixed for the table's life, so the bytes copied
 * are those the scan decoded.
 */
final class StoredColumns implements StoredBlock {
    private final Table table;
    private final int block;
    /** Positions in the table's schema, in the batch's order; null for every column as stored. */
    private final int[] projection;
    private final int rowCount;

    StoredColumns(final Table table, final int block, final int[] projection) {
        this.table = table;
        this.block = block;
        this.projection = projection;
        this.rowCount = table.blockRowCount(block);
    }

    @Override
    public int rowCount() {
        return rowCount;
    }

    @Override
    public int columnCount() {
        return projection == null ? table.schema().size() : projection.length;
    }

    @Override
    public int copyTo(final MutableDirectBuffer target, final int offset) {
        try (BlockFileCache.Handle handle = table.acquire(block)) {
            return BlockProjection.copy(handle.file().buffer(), 0, projection, target, offset);
        }
    }

    @Override
    public String describe() {
        return "block " + block + " of table '" + table.name() + "'";
    }

    @Override
    public String toString() {
        return "StoredColumns[" + describe() + ", columns=" + columnCount() + ", rows=" + rowCount + "]";
    }
}
