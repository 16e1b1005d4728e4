package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.spi.TableStatistics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's statistics file: written with the table from every block the writer wrote, visible together
 * with it, replaced with the table, rewritten later atomically; a damaged one is named with the command
 * that writes it again, a missing one is no error.
 */
class StatisticsFileTest {
    private static final Schema SCHEMA = Schema.parse("k:int64");

    @TempDir
    Path dir;

    /** Records the row counts of the blocks it sees; its statistics are those counts, one byte each. */
    private static final class BlockRows implements TableStatistics {
        final List<Integer> rows = new ArrayList<>();

        @Override
        public void accept(final Block block) {
            rows.add(block.rowCount());
        }

        @Override
        public byte[] finish() {
            final byte[] bytes = new byte[rows.size()];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (rows.get(i) / 1000);
            }
            return bytes;
        }
    }

    private static Table write(final Store store, final String name, final int rows, final boolean replace,
                               final TableStatistics statistics) {
        try (TableWriter writer = store.write(TableSpec.of(name, SCHEMA).replacing(replace).withBlockRows(4000))) {
            if (statistics != null) {
                writer.gather(statistics);
            }
            for (int i = 0; i < rows; i++) {
                writer.column(0).appendLong(i);
                writer.endRow();
            }
            return writer.finish();
        }
    }

    @Test
    void theWriterStoresWhatItsGathererSawOfEveryBlock() {
        final Store store = Store.create(dir.resolve("s"));
        final BlockRows seen = new BlockRows();
        try (Table t = write(store, "t", 10_000, false, seen)) {
            assertThat(seen.rows).containsExactly(4000, 4000, 2000);
            assertThat(t.statistics()).containsExactly(4, 4, 2);
        }
        try (Table again = store.table("t")) {
            assertThat(again.statistics()).containsExactly(4, 4, 2);
        }
        assertThat(store.contents().foreign()).isEmpty();
    }

    @Test
    void aTableWithoutStatisticsHasNoneAndGetsThemLater() {
        final Store store = Store.create(dir.resolve("s"));
        try (Table t = write(store, "t", 100, false, null)) {
            assertThat(t.statistics()).isNull();
            t.writeStatistics(new byte[] {9, 8});
            assertThat(t.statistics()).containsExactly(9, 8);
        }
        try (Table t = store.table("t")) {
            assertThat(t.statistics()).containsExactly(9, 8);
        }
    }

    @Test
    void aReplacedTableKeepsOnlyItsNewStatistics() {
        final Store store = Store.create(dir.resolve("s"));
        write(store, "t", 8000, false, new BlockRows()).close();
        try (Table t = write(store, "t", 100, true, null)) {
            assertThat(t.statistics()).isNull();
        }
    }

    @Test
    void aDamagedFileIsNamedWithTheCommandThatWritesItAgain() throws IOException {
        final Store store = Store.create(dir.resolve("s"));
        final Path file;
        try (Table t = write(store, "t", 5000, false, new BlockRows())) {
            file = t.dataDir().resolve(StatisticsFile.FILE);
        }
        final byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 9] ^= 1;
        Files.write(file, bytes);
        try (Table t = store.table("t")) {
            assertThatThrownBy(t::statistics).isInstanceOf(StorageException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining("checksum")
                    .hasMessageContaining("sluice analyze --store " + store.dir() + " --tables t");
        }
        Files.write(file, new byte[] {1, 2, 3});
        try (Table t = store.table("t")) {
            assertThatThrownBy(t::statistics).hasMessageContaining("not a statistics file");
        }
    }
}
