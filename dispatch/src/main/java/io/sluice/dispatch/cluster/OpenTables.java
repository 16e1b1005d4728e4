package io.sluice.dispatch.cluster;

import io.sluice.storage.StorageException;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.util.HashMap;
import java.util.Map;
import org.agrona.CloseHelper;

/**
 * The tables of a store that CNs have read, each opened once (its block files mapped and checked
 * once) and kept open for later queries; shared by the CNs of one process. Thread-safe.
 */
public final class OpenTables implements AutoCloseable {
    private final Store store;
    private final Map<String, Table> open = new HashMap<>();

    public OpenTables(final Store store) {
        this.store = store;
    }

    /** A table by name, opened on first use; the error lists the tables the store has. */
    public synchronized Table get(final String name) {
        return open.computeIfAbsent(name, n -> {
            if (!store.hasTable(n)) {
                throw new StorageException("store " + store.dir() + " has no table '" + n + "' (it has "
                        + store.tableNames() + "): every CN must read the same store as the coordinator");
            }
            return store.table(n);
        });
    }

    public Store store() {
        return store;
    }

    @Override
    public synchronized void close() {
        CloseHelper.quietCloseAll(open.values());
        open.clear();
    }
}
