package io.sluice.perf.cli;

import io.sluice.format.StorageException;
import io.sluice.format.spi.Catalog;
import io.sluice.iceberg.IcebergCatalog;
import io.sluice.parquet.ParquetCatalog;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.nio.file.Path;
import java.util.List;

/**
 * The tables a command plans and runs over: a store ({@code --store DIR}, or {@code --store s3://BUCKET/PREFIX} on
 * object storage), a folder of Parquet files ({@code --parquet DIR}) or Iceberg tables ({@code --iceberg CATALOG}),
 * opened as a catalog the command owns and closes.
 *
 * @param store   the store, or null over Parquet files or Iceberg tables
 * @param catalog the tables
 * @param names   the tables' names
 * @param where   the directory or catalog, as messages name it
 * @param opened  the store as opened (with what reading it from object storage started), or null without a store
 */
record TableSource(Store store, Catalog catalog, List<String> names, String where, ObjectStoreOptions.Opened opened)
        implements AutoCloseable {
    /** The sources a command takes, as an error for none or several lists them. */
    static final String SOURCES = "--store DIR (a store made by sluice gen or sluice import), --parquet DIR (a folder"
            + " of NAME.parquet files or NAME/ folders of Parquet files) or --iceberg CATALOG (Iceberg tables; see"
            + " docs/iceberg.md)";

    /**
     * Opens the store at {@code store}, the Parquet tables under {@code parquet} or the Iceberg tables of
     * {@code iceberg}, exactly one of them given.
     *
     * @throws IllegalArgumentException when several or none is given
     * @throws StorageException         when the directory holds no store or no Parquet table, or the Iceberg tables
     *                                  cannot be read
     */
    static TableSource open(final Path store, final Path parquet, final IcebergOptions iceberg) {
        return open(store, parquet, iceberg, null);
    }

    /**
     * As {@link #open(Path, Path, IcebergOptions)}, a store's error for a missing table ending with
     * {@code missingTableHint} (its default when null).
     */
    static TableSource open(final Path store, final Path parquet, final IcebergOptions iceberg,
                            final String missingTableHint) {
        return open(store, parquet, iceberg, missingTableHint, new ObjectStoreOptions());
    }

    /** As {@link #open(Path, Path, IcebergOptions, String)}, a store on object storage read through {@code objectStore}'s cache. */
    static TableSource open(final Path store, final Path parquet, final IcebergOptions iceberg,
                            final String missingTableHint, final ObjectStoreOptions objectStore) {
        final boolean overIceberg = iceberg != null && iceberg.given();
        if ((store != null ? 1 : 0) + (parquet != null ? 1 : 0) + (overIceberg ? 1 : 0) > 1) {
            throw new IllegalArgumentException("give one of " + SOURCES + ", not several");
        }
        if (iceberg != null && iceberg.namespace != null && !overIceberg) {
            throw new IllegalArgumentException("--iceberg-namespace needs --iceberg CATALOG");
        }
        if (overIceberg) {
            final IcebergCatalog catalog = iceberg.open();
            return new TableSource(null, catalog, catalog.tableNames(), iceberg.describe(), null);
        }
        if (parquet != null) {
            final ParquetCatalog catalog = ParquetCatalog.open(parquet);
            return new TableSource(null, catalog, catalog.tableNames(), "parquet " + parquet, null);
        }
        if (store == null) {
            throw new IllegalArgumentException("give " + SOURCES);
        }
        final ObjectStoreOptions.Opened opened = objectStore.open(store);
        final Store s = opened.store();
        return new TableSource(s, missingTableHint == null ? new StoreCatalog(s) : new StoreCatalog(s, missingTableHint),
                s.tableNames(), "store " + store, opened);
    }

    /** Whether the tables are files the command reads as they are (Parquet or Iceberg), not a store. */
    boolean isFiles() {
        return store == null;
    }

    @Override
    public void close() {
        if (catalog instanceof StoreCatalog s) {
            s.close();
            opened.close();
        } else if (catalog instanceof ParquetCatalog p) {
            p.close();
        } else if (catalog instanceof IcebergCatalog i) {
            i.close();
        }
    }
}
