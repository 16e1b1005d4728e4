package io.sluice.sql;

import io.sluice.format.Schema;
import io.sluice.format.spi.Catalog;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;

/**
 * A store of three small tables {@code (id int64, k int64)}: {@code t} with {@code k} NULL on every
 * fifth row, {@code u} on every fourth, {@code v} never (so Calcite types its {@code k} NOT NULL).
 * For plans of NOT IN and of nullable keys.
 */
final class NullsStore implements AutoCloseable {
    private final StoreCatalog catalog;

    NullsStore(final Path dir) {
        final Store store = Store.create(dir);
        write(store, "t", 20, 5);
        write(store, "u", 10, 4);
        write(store, "v", 10, 0);
        this.catalog = new StoreCatalog(store);
    }

    private static void write(final Store store, final String name, final int rows, final int nullEvery) {
        final TableSpec spec = TableSpec.of(name, Schema.parse("id:int64,k:int64"));
        try (TableWriter writer = store.write(spec)) {
            for (int i = 0; i < rows; i++) {
                writer.column(0).appendLong(i);
                if (nullEvery > 0 && i % nullEvery == 0) {
                    writer.column(1).appendNull();
                } else {
                    writer.column(1).appendLong(i % 7);
                }
                writer.endRow();
            }
            writer.finish().close();
        }
    }

    Catalog catalog() {
        return catalog;
    }

    @Override
    public void close() {
        catalog.close();
    }
}
