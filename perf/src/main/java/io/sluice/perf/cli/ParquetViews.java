package io.sluice.perf.cli;

import io.sluice.format.spi.Catalog;
import io.sluice.iceberg.IcebergCatalog;
import io.sluice.parquet.ParquetCatalog;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB views over the files of Parquet tables (or of Iceberg tables' current snapshots), so that DuckDB reads the
 * same files Sluice reads, as they are.
 */
final class ParquetViews {
    private ParquetViews() {
    }

    /** Creates (or replaces) a view {@code NAME} over {@code read_parquet} of each table's files; returns the names. */
    static List<String> create(final Catalog catalog, final List<String> tables, final Connection duck)
            throws SQLException {
        try (Statement s = duck.createStatement()) {
            for (final String table : tables) {
                final List<String> quoted = new ArrayList<>();
                final List<Path> files = catalog instanceof IcebergCatalog iceberg ? iceberg.table(table).dataFiles()
                        : ((ParquetCatalog) catalog).files(table);
                for (final Path file : files) {
                    quoted.add("'" + file.toAbsolutePath().toString().replace("'", "''") + "'");
                }
                s.execute("create or replace view " + table + " as select * from read_parquet([" + String.join(", ", quoted)
                        + "])");
            }
        }
        return tables;
    }
}
