package io.sluice.storage;

import io.sluice.format.StorageException;
import io.sluice.format.spi.Catalog;
import java.util.HashMap;
import java.util.Map;

/**
 * The tables of a store as a {@link Catalog}: each opened on first use (manifest and zonemaps read;
 * block files are opened as scans read them, through the store's {@link BlockFileCache}) and kept
 * open, at the version it had then, until the catalog closes. Thread-safe.
 */
public final class StoreCatalog implements Catalog, AutoCloseable {
    private final Store store;
    private final String missingTableHint;
    private final Map<String, Table> open = new HashMap<>();

    /** The tables of {@code store}; a missing table is an error listing the tables it has. */
    public StoreCatalog(final Store store) {
        this(store, "import a CSV file as that table (see sluice import --help), or generate the TPC-H tables"
                + " (see sluice gen --help)");
    }

    /** As {@link #StoreCatalog(Store)}, the error for a missing table ending with {@code missingTableHint}. */
    public StoreCatalog(final Store store, final String missingTableHint) {
        this.store = store;
        this.missingTableHint = missingTableHint;
    }

    @Override
    public synchronized Table table(final String name) {
        final Table table = open.get(name);
        if (table != null) {
            return table;
        }
        if (!store.hasTable(name)) {
            throw new StorageException("store " + store.dir() + " has no table '" + name + "' (it has "
                    + store.tableNames() + "): " + missingTableHint);
        }
        final Table opened = store.table(name);
        open.put(name, opened);
        return opened;
    }

    /** The store the tables come from. */
    public Store store() {
        return store;
    }

    /** Closes every table opened (their open block files are closed). */
    @Override
    public synchronized void close() {
        for (final Table t : open.values()) {
            t.close();
        }
        open.clear();
    }
}
