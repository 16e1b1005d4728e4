package io.sluice.sql;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Tests over one {@link TestStore} per class and a planner over its table. */
abstract class OverTestStore {
    @TempDir
    static Path dir;

    static TestStore store;
    static SqlPlanner planner;

    @BeforeAll
    static void create() {
        store = new TestStore(dir.resolve("store"));
        planner = new SqlPlanner(store.catalog(), List.of("t"));
    }

    @AfterAll
    static void close() {
        store.close();
    }
}
