package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table replaced while a reader has it open: the reader gets old rows or a clear error, never new ones. */
class TableReplacementTest {
    static final Schema SCHEMA = Schema.parse("k:int64");

    @TempDir
    Path dir;

    /** A table of {@code blocks} one-row blocks holding {@code first}, {@code first + 1}, ... */
    static void write(final Store store, final long first, final int blocks, final boolean replace) {
        try (TableWriter writer = store.write(TableSpec.of("t", SCHEMA).withBlockRows(1).replacing(replace))) {
            for (int i = 0; i < blocks; i++) {
                writer.column(0).appendLong(first + i);
                writer.endRow();
            }
            writer.finish().close();
        }
    }

    static long key(final Table table, final int block) {
        return ((LongVector) table.readBlock(block).column(0)).get(0);
    }

    @Test
    void replacingNeedsToBeAskedFor() {
        final Store store = Store.create(dir);
        write(store, 0, 2, false);
        assertThatThrownBy(() -> write(store, 100, 2, false)).isInstanceOf(StorageException.class)
                .hasMessageContaining("table 't' already exists");
    }

    @Test
    void aReaderOfTheOldVersionGetsOldRowsFromOpenFilesAndAnErrorForTheOthers() throws Exception {
        final Store store = Store.create(dir);
        write(store, 0, 4, false);
        final BlockFileCache cache = new BlockFileCache(16);
        try (Table old = Table.open(dir.resolve("t"), cache)) {
            assertThat(old.version()).isEqualTo(1);
            assertThat(key(old, 0)).isZero();
            write(store, 100, 4, true);
            // Block 0 is still open: the old version's row.
            assertThat(key(old, 0)).isZero();
            // Block 1 never was: the new version's file at that number must not be read.
            assertThatThrownBy(() -> key(old, 1)).isInstanceOf(StorageException.class)
                    .hasMessageStartingWith("table 't' was replaced while it was being read (version 1 of "
                            + dir.resolve("t") + " is gone, block 1 was not open): run the query again");
        }
        try (Table fresh = store.table("t")) {
            assertThat(fresh.version()).isEqualTo(2);
            assertThat(List.of(key(fresh, 0), key(fresh, 1), key(fresh, 2), key(fresh, 3)))
                    .containsExactly(100L, 101L, 102L, 103L);
        }
        try (Stream<Path> entries = Files.list(dir.resolve("t"))) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                    TableManifest.FILE, "v2");
        }
    }

    @Test
    void aTableOfFormatOneIsReadAndReplacedAndItsOldFilesGo() throws Exception {
        final Store store = Store.create(dir);
        write(store, 0, 3, false);
        // Format 1 kept the blocks and the index in the table directory, and had no version.
        final Path table = dir.resolve("t");
        try (Stream<Path> files = Files.list(table.resolve("v1"))) {
            for (final Path f : files.toList()) {
                Files.move(f, table.resolve(f.getFileName()));
            }
        }
        Files.delete(table.resolve("v1"));
        final String manifest = Files.readString(table.resolve(TableManifest.FILE), StandardCharsets.UTF_8);
        Files.writeString(table.resolve(TableManifest.FILE),
                manifest.replace("format=2", "format=1").replaceAll("(?m)^version=.*\\n", ""), StandardCharsets.UTF_8);
        try (Table legacy = store.table("t")) {
            assertThat(legacy.version()).isZero();
            assertThat(key(legacy, 2)).isEqualTo(2);
        }
        write(store, 10, 2, true);
        try (Table replaced = store.table("t"); Stream<Path> entries = Files.list(table)) {
            assertThat(replaced.version()).isEqualTo(1);
            assertThat(key(replaced, 1)).isEqualTo(11);
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                    TableManifest.FILE, "v1");
        }
    }

    @Test
    void anUnfinishedReplacementKeepsTheOldVersion() {
        final Store store = Store.create(dir);
        write(store, 0, 2, false);
        try (TableWriter writer = store.write(TableSpec.of("t", SCHEMA).replacing(true))) {
            writer.column(0).appendLong(42);
            writer.endRow();
        }
        try (Table t = store.table("t")) {
            assertThat(t.version()).isEqualTo(1);
            assertThat(key(t, 1)).isEqualTo(1);
        }
        assertThat(store.contents().leftovers()).isEmpty();
    }

    @Test
    void planningReadsOnlyZonemapsAndOpensNoBlockFile() {
        final Store store = Store.create(dir);
        write(store, 5, 50, false);
        final BlockFileCache cache = new BlockFileCache(4);
        try (Table t = Table.open(dir.resolve("t"), cache)) {
            long rows = 0;
            for (int b = 0; b < t.blockCount(); b++) {
                rows += t.blockRowCount(b);
                assertThat(t.zoneMap(b, 0).min()).isEqualTo(5 + b);
            }
            assertThat(rows).isEqualTo(50);
            assertThat(t.missingBlocks()).isEmpty();
            assertThat(cache.filesOpened()).isZero();
        }
    }
}
