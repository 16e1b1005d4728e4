package io.sluice.perf.iceberg;

import io.sluice.iceberg.IcebergCatalog;
import io.sluice.iceberg.LocalFileIO;
import io.sluice.iceberg.ParquetDataFiles;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * TPC-H as Iceberg tables: the rows Sluice's generator makes at a scale, loaded into DuckDB and copied, in the
 * order generated, to several Parquet files per table (row groups of {@code rowGroupRows} rows), which a JDBC
 * catalog on SQLite registers with their footers' bounds in namespace {@code tpch}; a DuckDB connection whose
 * tables are views over the same files, the oracle; and an {@link IcebergCatalog} over the catalog.
 */
public final class IcebergTpch implements AutoCloseable {
    /** The namespace of the tables. */
    public static final String NAMESPACE = "tpch";

    private final String catalogUri;
    private final Map<String, List<Path>> files;
    private final Connection duck;
    private final IcebergCatalog catalog;

    private IcebergTpch(final String catalogUri, final Map<String, List<Path>> files, final Connection duck,
                        final IcebergCatalog catalog) {
        this.catalogUri = catalogUri;
        this.files = files;
        this.duck = duck;
        this.catalog = catalog;
    }

    /**
     * Generates every table at scale {@code sf} under {@code work}, writes each as up to {@code filesPerTable}
     * Parquet files under {@code work/data/NAME/} and registers them in the catalog {@code work/catalog.db}.
     */
    public static IcebergTpch generate(final Path work, final double sf, final int rowGroupRows, final int filesPerTable)
            throws Exception {
        final Store store = Store.create(work.resolve("store"));
        final List<String> names = new ArrayList<>();
        for (final TpchTable t : TpchTable.values()) {
            try (Table ignored = TpchLoader.load(store, t, sf, rows -> { })) {
                names.add(t.tableName());
            }
        }
        final Map<String, List<Path>> files = new LinkedHashMap<>();
        try (Connection loader = DuckDbLoader.openInMemory(2); Statement s = loader.createStatement()) {
            DuckDbLoader.load(store, names, loader);
            for (final String name : names) {
                final long rows;
                try (ResultSet r = s.executeQuery("select count(*) from " + name)) {
                    r.next();
                    rows = r.getLong(1);
                }
                final int parts = (int) Math.max(1, Math.min(filesPerTable, rows / 1000));
                final Path folder = Files.createDirectories(work.resolve("data").resolve(name));
                final List<Path> written = new ArrayList<>();
                for (int p = 0; p < parts; p++) {
                    final Path file = folder.resolve(String.format("part-%05d.parquet", p));
                    s.execute("copy (select * from " + name + " where rowid >= " + rows * p / parts + " and rowid < "
                            + rows * (p + 1) / parts + " order by rowid) to '" + file + "' (format parquet,"
                            + " row_group_size " + rowGroupRows + ")");
                    written.add(file);
                }
                files.put(name, List.copyOf(written));
            }
        }
        final String uri = "jdbc:sqlite:" + work.resolve("catalog.db");
        try (JdbcCatalog writer = new JdbcCatalog()) {
            writer.initialize("warehouse", Map.of(CatalogProperties.URI, uri,
                    CatalogProperties.WAREHOUSE_LOCATION, "file:" + work.resolve("warehouse"),
                    CatalogProperties.FILE_IO_IMPL, LocalFileIO.class.getName()));
            writer.createNamespace(Namespace.of(NAMESPACE));
            for (final Map.Entry<String, List<Path>> e : files.entrySet()) {
                final org.apache.iceberg.Table table = writer.createTable(TableIdentifier.of(NAMESPACE, e.getKey()),
                        ParquetDataFiles.schemaOf(e.getValue().get(0)), PartitionSpec.unpartitioned());
                ParquetDataFiles.append(table, e.getValue());
            }
        }
        final Connection duck = DuckDbLoader.openInMemory(2);
        try (Statement s = duck.createStatement()) {
            for (final Map.Entry<String, List<Path>> e : files.entrySet()) {
                final List<String> quoted = new ArrayList<>();
                for (final Path f : e.getValue()) {
                    quoted.add("'" + f + "'");
                }
                s.execute("create view " + e.getKey() + " as select * from read_parquet([" + String.join(", ", quoted)
                        + "])");
            }
        }
        return new IcebergTpch(uri, Map.copyOf(files), duck, IcebergCatalog.open(uri, NAMESPACE));
    }

    /** The JDBC URI of the catalog. */
    public String catalogUri() {
        return catalogUri;
    }

    /** The data files of a table, in the order written. */
    public List<Path> files(final String table) {
        return files.get(table);
    }

    /** DuckDB reading the same files: the oracle. Used by one thread at a time. */
    public Connection duck() {
        return duck;
    }

    /** The tables as Sluice reads them. */
    public IcebergCatalog catalog() {
        return catalog;
    }

    @Override
    public void close() throws Exception {
        try {
            catalog.close();
        } finally {
            duck.close();
        }
    }
}
