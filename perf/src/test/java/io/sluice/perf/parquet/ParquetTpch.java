package io.sluice.perf.parquet;

import io.sluice.parquet.ParquetCatalog;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * TPC-H as Parquet files DuckDB wrote: the rows Sluice's generator makes at a scale (the DuckDB here has no
 * {@code tpch} extension offline) loaded into DuckDB and copied to {@code NAME.parquet} files with row
 * groups of {@code rowGroupRows} rows; a DuckDB connection whose tables are views over those files, the
 * oracle; and a {@link ParquetCatalog} over them.
 */
public final class ParquetTpch implements AutoCloseable {
    private final Path dir;
    private final Connection duck;
    private final ParquetCatalog catalog;

    private ParquetTpch(final Path dir, final Connection duck, final ParquetCatalog catalog) {
        this.dir = dir;
        this.duck = duck;
        this.catalog = catalog;
    }

    /** Generates every table at scale {@code sf} under {@code work} and writes {@code work/parquet/NAME.parquet}. */
    public static ParquetTpch generate(final Path work, final double sf, final int rowGroupRows) throws Exception {
        final Path parquet = Files.createDirectories(work.resolve("parquet"));
        final List<String> names = new ArrayList<>();
        final Store store = Store.create(work.resolve("store"));
        for (final TpchTable t : TpchTable.values()) {
            try (Table ignored = TpchLoader.load(store, t, sf, rows -> { })) {
                names.add(t.tableName());
            }
        }
        try (Connection loader = DuckDbLoader.openInMemory(2); Statement s = loader.createStatement()) {
            DuckDbLoader.load(store, names, loader);
            for (final String name : names) {
                s.execute("copy " + name + " to '" + parquet.resolve(name + ".parquet") + "' (format parquet,"
                        + " row_group_size " + rowGroupRows + ")");
            }
        }
        final Connection duck = DuckDbLoader.openInMemory(2);
        try (Statement s = duck.createStatement()) {
            for (final String name : names) {
                s.execute("create view " + name + " as select * from read_parquet('"
                        + parquet.resolve(name + ".parquet") + "')");
            }
        }
        return new ParquetTpch(parquet, duck, ParquetCatalog.open(parquet));
    }

    /** The folder of Parquet files. */
    public Path dir() {
        return dir;
    }

    /** DuckDB reading the same files: the oracle. Used by one thread at a time. */
    public Connection duck() {
        return duck;
    }

    /** The tables as Sluice reads them. */
    public ParquetCatalog catalog() {
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
