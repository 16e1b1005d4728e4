package io.sluice.perf.cli;

import io.sluice.format.StorageException;
import io.sluice.format.spi.Catalog;
import io.sluice.parquet.ParquetCatalog;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.nio.file.Path;
import java.util.List;

/**
 * The tables a command plans and runs over: a store ({@code --store DIR}, or {@code --store s3://BUCKET/PREFIX} on
 * object storage) or a folder of Parquet files ({@code --parquet DIR}), opened as a catalog the command owns and
 * closes.
 *
 * @param store   the store, or null over Parquet files
 * @param catalog the tables
 * @param names   the tables' names
 * @param where   the directory, as messages name it
 * @param opened  the store as opened (with what reading it from object storage started), or null over Parquet files
 */
record TableSource(Store store, Catalog catalog, List<String> names, Path where, ObjectStoreOptions.Opened opened)
        implements AutoCloseable {
    /**
     * Opens the store at {@code store} or the Parquet tables under {@code parquet}, exactly one of them given.
     *
     * @throws IllegalArgumentException when both or neither is given
     * @throws StorageException         when the directory holds no store or no Parquet table
     */
    static TableSource open(final Path store, final Path parquet) {
        return open(store, parquet, null);
    }

    /**
     * As {@link #open(Path, Path)}, a store's error for a missing table ending with {@code missingTableHint}
     * (its default when null).
     */
    static TableSource open(final Path store, final Path parquet, final String missingTableHint) {
        return open(store, parquet, missingTableHint, new ObjectStoreOptions());
    }

    /** As {@link #open(Path, Path, String)}, a store on object storage read through {@code objectStore}'s cache. */
    static TableSource open(final Path store, final Path parquet, final String missingTableHint,
                            final ObjectStoreOptions objectStore) {
        if (store != null && parquet != null) {
            throw new IllegalArgumentException("give either --store DIR or --parquet DIR, not both");
        }
        if (parquet != null) {
            final ParquetCatalog catalog = ParquetCatalog.open(parquet);
            return new TableSource(null, catalog, catalog.tableNames(), parquet, null);
        }
        if (store == null) {
            throw new IllegalArgumentException("give --store DIR (a store made by sluice gen or sluice import) or"
                    + " --parquet DIR (a folder of NAME.parquet files or NAME/ folders of Parquet files)");
        }
        final ObjectStoreOptions.Opened opened = objectStore.open(store);
        final Store s = opened.store();
        return new TableSource(s, missingTableHint == null ? new StoreCatalog(s) : new StoreCatalog(s, missingTableHint),
                s.tableNames(), store, opened);
    }

    /** Whether the tables are Parquet files. */
    boolean isParquet() {
        return store == null;
    }

    @Override
    public void close() {
        if (catalog instanceof StoreCatalog s) {
            s.close();
            opened.close();
        } else if (catalog instanceof ParquetCatalog p) {
            p.close();
        }
    }
}
