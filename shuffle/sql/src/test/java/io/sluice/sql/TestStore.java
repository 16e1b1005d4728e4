package io.sluice.sql;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.Schema;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store with one table {@code t(k int64, v decimal(15,2), s string)} of {@link #ROWS} rows in
 * {@code k} order, {@code k = 0, 1, ...}, {@code v = (k mod 100) / 100}, {@code s = 's' || (k mod 7)},
 * and a catalog over it that counts the blocks scans read.
 */
final class TestStore implements AutoCloseable {
    static final int BLOCK_ROWS = 1000;
    static final int ROWS = 20 * BLOCK_ROWS;

    private final StoreCatalog catalog;
    /** The blocks scans read any column of since {@link #resetCounts}. */
    private final Set<Integer> blocksRead = ConcurrentHashMap.newKeySet();

    TestStore(final Path dir) {
        final Store store = Store.create(dir);
        final TableSpec spec = TableSpec.of("t", Schema.parse("k:int64,v:decimal(15,2),s:string"))
                .withPresortedKey("k").withBlockRows(BLOCK_ROWS);
        try (TableWriter writer = store.write(spec)) {
            for (int k = 0; k < ROWS; k++) {
                writer.column(0).appendLong(k);
                writer.column(1).appendLong(k % 100);
                writer.column(2).appendString("s" + (k % 7));
                writer.endRow();
            }
            writer.finish().close();
        }
        this.catalog = new StoreCatalog(store);
    }

    /** The store's tables, each block read recorded. */
    Catalog catalog() {
        return name -> new Counting(catalog.table(name));
    }

    /** How many distinct blocks were read since {@link #resetCounts}. */
    int blocksRead() {
        return blocksRead.size();
    }

    void resetCounts() {
        blocksRead.clear();
    }

    @Override
    public void close() {
        catalog.close();
    }

    /** A table that records the blocks read (whole, by column or by row) and otherwise is the table it wraps. */
    private final class Counting implements BlockTable {
        private final BlockTable table;

        Counting(final BlockTable table) {
            this.table = table;
        }

        @Override
        public String name() {
            return table.name();
        }

        @Override
        public Schema schema() {
            return table.schema();
        }

        @Override
        public int blockCount() {
            return table.blockCount();
        }

        @Override
        public int blockRowCount(final int block) {
            return table.blockRowCount(block);
        }

        @Override
        public ZoneMap zoneMap(final int block, final int column) {
            return table.zoneMap(block, column);
        }

        @Override
        public Block readBlock(final int block, final int... projection) {
            blocksRead.add(block);
            return table.readBlock(block, projection);
        }

        @Override
        public void readColumns(final int block, final int[] columns, final ColumnVector[] vectors) {
            blocksRead.add(block);
            table.readColumns(block, columns, vectors);
        }

        @Override
        public boolean readRows(final int block, final int[] columns, final int[] rows, final int count,
                                final ColumnVector[] out) {
            blocksRead.add(block);
            return table.readRows(block, columns, rows, count, out);
        }

        @Override
        public String sortKey() {
            return table.sortKey();
        }
    }
}
