package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One writer per store, inside one process; the cross-process cases are in the command line's tests. */
class StoreLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondWriterFailsAtOnceNamingTheFirst() {
        final Store store = Store.create(dir);
        try (StoreLock lock = store.lock("sluice gen --sf 1 --out " + dir)) {
            assertThat(lock.staleHolder()).isNull();
            assertThatThrownBy(() -> Store.open(dir).lock("sluice import ..."))
                    .isInstanceOf(StorageException.class)
                    .hasMessageStartingWith("store " + dir + " is locked by another writer in this process: pid "
                            + ProcessHandle.current().pid())
                    .hasMessageContaining("(sluice gen --sf 1 --out " + dir + ")");
            assertThatThrownBy(() -> Store.open(dir).createTable("t", Schema.parse("k:int64"), null))
                    .hasMessageContaining("is locked by another writer");
            assertThat(StoreLock.recorded(dir)).hasValueSatisfying(h -> {
                assertThat(h.command()).isEqualTo("sluice gen --sf 1 --out " + dir);
                assertThat(h.alive()).isTrue();
            });
        }
        try (StoreLock again = Store.open(dir).lock("second")) {
            assertThat(again.staleHolder()).as("released, not stale").isNull();
        }
    }

    @Test
    void tablesWrittenUnderTheStoresLockNeedNoOtherAndTheLockIsReleasedEmpty() throws Exception {
        final Store store = Store.create(dir);
        try (StoreLock lock = store.lock("writer")) {
            try (TableWriter writer = store.createTable("a", Schema.parse("k:int64"), null)) {
                writer.finish().close();
            }
            try (TableWriter writer = store.createTable("b", Schema.parse("k:int64"), null)) {
                writer.finish().close();
            }
        }
        assertThat(Files.size(dir.resolve(StoreLock.FILE))).isZero();
        assertThat(StoreLock.recorded(dir)).isEmpty();
        assertThat(store.tableNames()).containsExactly("a", "b");
    }

    @Test
    void aLockLeftByADeadWriterIsTakenOverSayingWhose() throws Exception {
        // What a writer killed with SIGKILL leaves: its record, and no lock (the kernel dropped it).
        Files.writeString(dir.resolve(StoreLock.FILE), "pid=999999999\nhost=" + StoreLock.localHost()
                + "\ncommand=sluice gen --sf 10 --out x\nsince=2020-01-02T03\\:04\\:05Z\n", StandardCharsets.UTF_8);
        assertThat(StoreLock.recorded(dir)).hasValueSatisfying(h -> assertThat(h.alive()).isFalse());
        try (StoreLock lock = Store.open(dir).lock("next")) {
            assertThat(lock.staleHolder()).isNotNull();
            assertThat(lock.staleHolder().pid()).isEqualTo(999_999_999L);
            assertThat(lock.staleHolder().command()).isEqualTo("sluice gen --sf 10 --out x");
            assertThat(lock.holder().pid()).isEqualTo(ProcessHandle.current().pid());
            assertThat(StoreLock.recorded(dir)).hasValueSatisfying(h -> assertThat(h.command()).isEqualTo("next"));
        }
    }

    @Test
    void theNextWriterRemovesLeftoversOfAnUnfinishedWriteAndSaysWhich() throws Exception {
        final Store store = Store.create(dir);
        try (TableWriter writer = store.createTable("t", Schema.parse("k:int64"), null)) {
            writer.column(0).appendLong(1);
            writer.endRow();
            writer.finish().close();
        }
        final Path partial = Files.createDirectories(dir.resolve(".u.partial").resolve("v1"));
        Files.write(partial.resolve("block-000000.sbk"), new byte[10]);
        final Path orphanVersion = Files.createDirectories(dir.resolve("t").resolve("v7"));
        final Path tmp = Files.writeString(dir.resolve("t").resolve(TableManifest.TEMPORARY_FILE), "x");
        final Path foreign = Files.writeString(dir.resolve("t").resolve("notes.txt"), "mine");
        assertThat(store.contents().leftovers()).containsExactlyInAnyOrder(dir.resolve(".u.partial"), orphanVersion, tmp);
        try (StoreLock lock = store.lock("cleaner")) {
            assertThat(lock.removedLeftovers()).containsExactlyInAnyOrder(dir.resolve(".u.partial"), orphanVersion, tmp);
        }
        assertThat(dir.resolve(".u.partial")).doesNotExist();
        assertThat(orphanVersion).doesNotExist();
        assertThat(tmp).doesNotExist();
        assertThat(foreign).hasContent("mine");
        try (Table t = store.table("t")) {
            assertThat(t.rowCount()).isEqualTo(1);
        }
    }
}
