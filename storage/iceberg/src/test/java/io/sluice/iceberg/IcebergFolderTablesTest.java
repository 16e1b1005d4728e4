package io.sluice.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.StorageException;
import io.sluice.format.ZoneMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet files added to a table folder without a catalog: the first commit creates the table with the file's
 * columns, each later one adds a metadata version; the folder reads back with every file and its bounds; a file
 * with a column the table lacks is refused, naming it.
 */
class IcebergFolderTablesTest {
    @TempDir
    Path dir;

    private Path parquet(final Connection duck, final String name, final String select) throws Exception {
        final Path file = dir.resolve("data").resolve(name);
        Files.createDirectories(file.getParent());
        try (Statement s = duck.createStatement()) {
            s.execute("copy (" + select + ") to '" + file + "' (format parquet)");
        }
        return file;
    }

    @Test
    void filesAddedInTwoCommitsReadBackAsOneTableOfThreeFiles() throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            final Path a = parquet(duck, "a.parquet", "select i::bigint as k from range(0, 100) r(i)");
            final Path b = parquet(duck, "b.parquet", "select i::bigint as k from range(100, 200) r(i)");
            final Path c = parquet(duck, "c.parquet", "select i::bigint as k from range(200, 250) r(i)");
            final Path table = dir.resolve("warehouse").resolve("events");
            IcebergFolderTables.addFiles(table, List.of(a, b));
            IcebergFolderTables.addFiles(table, List.of(c));
            assertThat(Files.readString(table.resolve("metadata").resolve("version-hint.text"))).isEqualTo("3");
            try (IcebergCatalog catalog = IcebergCatalog.open(dir.resolve("warehouse").toString(), null)) {
                final IcebergTable events = catalog.table("events");
                assertThat(events.rowCount()).isEqualTo(250);
                assertThat(events.dataFiles()).containsExactly(a, b, c);
                assertThat(events.blockFiles().zoneMap(2, 0)).isEqualTo(new ZoneMap(200, 249, 0, 50));
            }
        }
    }

    @Test
    void aFileWithAColumnTheTableLacksIsRefused() throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            final Path a = parquet(duck, "a.parquet", "select 1::bigint as k");
            final Path wider = parquet(duck, "wider.parquet", "select 1::bigint as k, 2::bigint as v");
            final Path table = dir.resolve("t");
            IcebergFolderTables.addFiles(table, List.of(a));
            assertThatThrownBy(() -> IcebergFolderTables.addFiles(table, List.of(wider)))
                    .isInstanceOf(StorageException.class).hasMessageContaining("wider.parquet")
                    .hasMessageContaining("column 'v'");
        }
    }
}
