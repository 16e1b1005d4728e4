package io.sluice.dispatch.cluster;

import io.sluice.format.Schema;
import io.sluice.storage.Store;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;

/** A store of one table {@code t(k int64, v int64)} holding keys 0 to rows - 1, each with value 3 k. */
final class KeyValueStore {
    private KeyValueStore() {
    }

    static Store create(final Path dir, final int rows) {
        final Store store = Store.create(dir);
        try (TableWriter writer = store.createTable("t", Schema.parse("k:int64,v:int64"), null)) {
            for (int i = 0; i < rows; i++) {
                writer.column(0).appendLong(i);
                writer.column(1).appendLong(3L * i);
                writer.endRow();
            }
            writer.finish();
        }
        return store;
    }
}
