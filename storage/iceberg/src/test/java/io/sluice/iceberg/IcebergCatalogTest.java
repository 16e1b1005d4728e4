package io.sluice.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.StorageException;
import io.sluice.format.StringKey;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockFiles;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg tables of Parquet files DuckDB writes, registered in a JDBC catalog on SQLite: the tables are found
 * through the catalog, through a REST catalog in front of it and through their metadata folders; each file's
 * bounds are the extremes DuckDB computes over the file, blocks are the files' row groups and read as DuckDB reads
 * them; bad sources, a missing namespace or table, damaged metadata, delete files, unsupported types and files
 * whose types differ from the table's are errors naming them.
 */
class IcebergCatalogTest {
    private static final int FILES = 3;
    private static final int ROWS_PER_FILE = 5_000;

    @TempDir
    static Path dir;

    private static Connection duck;
    private static String catalogUri;
    private static JdbcCatalog writer;

    @BeforeAll
    static void writeTables() throws Exception {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        final Path data = Files.createDirectories(dir.resolve("data"));
        final List<Path> files = new ArrayList<>();
        try (Statement s = duck.createStatement()) {
            s.execute("create table t as select i::bigint as k, (i % 97)::integer as small,"
                    + " (date '1995-01-01' + (i % 3000)::integer) as d, ((i % 10007) / 100)::decimal(15,2) as price,"
                    + " case when i % 13 = 0 then null else 'name#' || (i * 31 % 977)::varchar end as s"
                    + " from range(" + FILES * ROWS_PER_FILE + ") r(i)");
            for (int f = 0; f < FILES; f++) {
                final Path file = data.resolve("part-" + f + ".parquet");
                s.execute("copy (select * from t where k >= " + f * ROWS_PER_FILE + " and k < " + (f + 1) * ROWS_PER_FILE
                        + " order by k) to '" + file + "' (format parquet, row_group_size 2048)");
                files.add(file);
            }
            s.execute("copy (select 1.5::double as x) to '" + data.resolve("double.parquet") + "' (format parquet)");
            s.execute("copy (select 7::bigint as k) to '" + data.resolve("keys.parquet") + "' (format parquet)");
        }
        final Path db = dir.resolve("catalog.db");
        catalogUri = "jdbc:sqlite:" + db;
        writer = new JdbcCatalog();
        writer.initialize("test", Map.of(CatalogProperties.URI, catalogUri,
                CatalogProperties.WAREHOUSE_LOCATION, "file:" + dir.resolve("warehouse"),
                CatalogProperties.FILE_IO_IMPL, LocalFileIO.class.getName()));
        writer.createNamespace(Namespace.of("tpch"));
        final Table t = writer.createTable(TableIdentifier.of("tpch", "t"), ParquetDataFiles.schemaOf(files.get(0)),
                PartitionSpec.unpartitioned());
        ParquetDataFiles.append(t, files);
        writer.createNamespace(Namespace.of("other"));
        writer.createTable(TableIdentifier.of("other", "empty"), ParquetDataFiles.schemaOf(files.get(0)),
                PartitionSpec.unpartitioned());
        final Table deletes = writer.createTable(TableIdentifier.of("other", "with_deletes"),
                ParquetDataFiles.schemaOf(files.get(0)), PartitionSpec.unpartitioned());
        ParquetDataFiles.append(deletes, files.subList(0, 1));
        deletes.newRowDelta().addDeletes(FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned())
                .ofPositionDeletes().withPath("file:" + data.resolve("deletes.parquet")).withFormat("parquet")
                .withFileSizeInBytes(100).withRecordCount(1).build()).commit();
        final Table mistyped = writer.createTable(TableIdentifier.of("other", "mistyped"),
                new Schema(Types.NestedField.optional(1, "k", Types.StringType.get())), PartitionSpec.unpartitioned());
        ParquetDataFiles.append(mistyped, List.of(data.resolve("keys.parquet")));
        final Table doubles = writer.createTable(TableIdentifier.of("other", "doubles"),
                new Schema(Types.NestedField.optional(1, "x", Types.DoubleType.get())), PartitionSpec.unpartitioned());
        doubles.newAppend().appendFile(org.apache.iceberg.DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath("file:" + data.resolve("double.parquet")).withFormat("parquet")
                .withFileSizeInBytes(Files.size(data.resolve("double.parquet"))).withRecordCount(1).build()).commit();
    }

    @AfterAll
    static void close() throws Exception {
        writer.close();
        duck.close();
    }

    @Test
    void aTableInAJdbcCatalogHasItsFilesRowGroupsAsBlocksAndTheirBoundsAsFileZoneMaps() throws Exception {
        try (IcebergCatalog catalog = IcebergCatalog.open(catalogUri, "tpch")) {
            assertThat(catalog.tableNames()).containsExactly("t");
            final IcebergTable t = catalog.table("t");
            assertThat(t.schema().names()).containsExactly("k", "small", "d", "price", "s");
            assertThat(t.rowCount()).isEqualTo((long) FILES * ROWS_PER_FILE);
            // 5000 rows in row groups of 2048: 3 per file.
            assertThat(t.blockCount()).isEqualTo(FILES * 3);
            final BlockFiles files = t.blockFiles();
            assertThat(files.fileCount()).isEqualTo(FILES);
            for (int f = 0; f < FILES; f++) {
                assertThat(files.firstBlock(f)).isEqualTo(3 * f);
                try (Statement s = duck.createStatement(); ResultSet r = s.executeQuery("select min(k), max(k),"
                        + " min(d), max(d), min(price), max(price), min(s), max(s), count(*) - count(s) from t where k >= "
                        + f * ROWS_PER_FILE + " and k < " + (f + 1) * ROWS_PER_FILE)) {
                    r.next();
                    assertThat(files.zoneMap(f, 0)).isEqualTo(new ZoneMap(r.getLong(1), r.getLong(2), 0, ROWS_PER_FILE));
                    assertThat(files.zoneMap(f, 2)).isEqualTo(new ZoneMap(days(r.getObject(3, LocalDate.class)),
                            days(r.getObject(4, LocalDate.class)), 0, ROWS_PER_FILE));
                    assertThat(files.zoneMap(f, 3)).isEqualTo(new ZoneMap(cents(r.getBigDecimal(5)),
                            cents(r.getBigDecimal(6)), 0, ROWS_PER_FILE));
                    assertThat(files.zoneMap(f, 4)).isEqualTo(new ZoneMap(StringKey.of(r.getString(7)),
                            StringKey.of(r.getString(8)), r.getInt(9), ROWS_PER_FILE));
                }
            }
            assertThat(files.firstBlock(FILES)).isEqualTo(t.blockCount());
            long sum = 0;
            for (int b = 0; b < t.blockCount(); b++) {
                final Block block = t.readBlock(b, 0);
                for (int r = 0; r < block.rowCount(); r++) {
                    sum += block.column(0).key(r);
                }
            }
            final long n = (long) FILES * ROWS_PER_FILE;
            assertThat(sum).isEqualTo(n * (n - 1) / 2);
            assertThat(t.reads()).isEqualTo(new IcebergTable.Reads(FILES, FILES * 3));
            assertThat(t.sortKey()).isEqualTo("k");
        }
    }

    @Test
    void aRestCatalogServesTheSameTable() throws Exception {
        try (RestCatalogServer rest = RestCatalogServer.start(writer);
             IcebergCatalog catalog = IcebergCatalog.open(rest.url(), "tpch")) {
            assertThat(catalog.tableNames()).containsExactly("t");
            final IcebergTable t = catalog.table("t");
            assertThat(t.rowCount()).isEqualTo((long) FILES * ROWS_PER_FILE);
            assertThat(t.blockFiles().fileCount()).isEqualTo(FILES);
            assertThat(t.blockFiles().zoneMap(1, 0)).isEqualTo(new ZoneMap(ROWS_PER_FILE, 2L * ROWS_PER_FILE - 1, 0,
                    ROWS_PER_FILE));
            assertThatThrownBy(() -> IcebergCatalog.open(rest.url(), "nope"))
                    .isInstanceOf(StorageException.class).hasMessageContaining("has no namespace 'nope'");
        }
    }

    @Test
    void aCatalogOfOneNamespaceNeedsNoneNamedAndOfSeveralSaysWhichItHas() {
        assertThatThrownBy(() -> IcebergCatalog.open(catalogUri, null))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("has namespaces").hasMessageContaining("tpch").hasMessageContaining("other")
                .hasMessageContaining("--iceberg-namespace");
        assertThatThrownBy(() -> IcebergCatalog.open(catalogUri, "nope"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("has no namespace 'nope'").hasMessageContaining("tpch");
    }

    @Test
    void theTableFolderTheCatalogWroteReadsTheSameWithoutTheCatalog() throws Exception {
        final Path tableFolder = dir.resolve("warehouse").resolve("tpch").resolve("t");
        final Path metadataFile;
        try (Stream<Path> files = Files.list(tableFolder.resolve("metadata"))) {
            metadataFile = files.filter(p -> p.toString().endsWith(".metadata.json")).sorted().reduce((a, b) -> b)
                    .orElseThrow();
        }
        for (final String source : List.of(tableFolder.getParent().toString(), tableFolder.toString(),
                metadataFile.toString())) {
            try (IcebergCatalog catalog = IcebergCatalog.open(source, null)) {
                assertThat(catalog.tableNames()).as(source).containsExactly("t");
                assertThat(catalog.table("t").rowCount()).as(source).isEqualTo((long) FILES * ROWS_PER_FILE);
                assertThat(catalog.table("t").blockFiles().fileCount()).as(source).isEqualTo(FILES);
            }
        }
    }

    @Test
    void aMetadataFileThatIsNotIcebergMetadataIsAnErrorNamingTheTable() throws Exception {
        final Path metadata = Files.createDirectories(dir.resolve("broken").resolve("t").resolve("metadata"));
        Files.writeString(metadata.resolve("v1.metadata.json"), "{\"not\": \"iceberg\"}");
        try (IcebergCatalog catalog = IcebergCatalog.open(dir.resolve("broken").toString(), null)) {
            assertThatThrownBy(() -> catalog.table("t"))
                    .isInstanceOf(StorageException.class).hasMessageContaining("table 't' cannot be loaded")
                    .hasMessageContaining("missing or damaged");
        }
    }

    @Test
    void aBadSourceIsAnErrorListingTheFormsASourceTakes() {
        assertThatThrownBy(() -> IcebergCatalog.open("thrift://metastore:9083", null))
                .isInstanceOf(StorageException.class).hasMessageContaining("thrift://")
                .hasMessageContaining("REST catalog URL");
        assertThatThrownBy(() -> IcebergCatalog.open(dir.resolve("absent").toString(), null))
                .isInstanceOf(StorageException.class).hasMessageContaining("does not exist")
                .hasMessageContaining("JDBC catalog URI");
        assertThatThrownBy(() -> IcebergCatalog.open("jdbc:sqlite:" + dir.resolve("absent.db"), null))
                .isInstanceOf(StorageException.class).hasMessageContaining("absent.db does not exist");
        assertThatThrownBy(() -> IcebergCatalog.open("http://127.0.0.1:1/catalog", null))
                .isInstanceOf(StorageException.class).hasMessageContaining("http://127.0.0.1:1/catalog")
                .hasMessageContaining("catalog server is running");
        assertThatThrownBy(() -> IcebergCatalog.open(dir.resolve("data").toString(), null))
                .isInstanceOf(StorageException.class).hasMessageContaining("holds no table");
        assertThatThrownBy(() -> IcebergCatalog.open(dir.resolve("warehouse").toString(), "tpch"))
                .isInstanceOf(StorageException.class).hasMessageContaining("drop --iceberg-namespace");
    }

    @Test
    void aMissingTableATableWithoutDataDeleteFilesAndUnsupportedTypesAreErrorsNamingThem() {
        try (IcebergCatalog catalog = IcebergCatalog.open(catalogUri, "other")) {
            assertThatThrownBy(() -> catalog.table("lineitem"))
                    .isInstanceOf(StorageException.class).hasMessageContaining("has no table 'lineitem'")
                    .hasMessageContaining("doubles");
            assertThatThrownBy(() -> catalog.table("empty"))
                    .isInstanceOf(StorageException.class).hasMessageContaining("has no snapshot");
            assertThatThrownBy(() -> catalog.table("with_deletes"))
                    .isInstanceOf(StorageException.class).hasMessageContaining("delete files")
                    .hasMessageContaining("POSITION_DELETES").hasMessageContaining("compact the table");
            assertThatThrownBy(() -> catalog.table("mistyped"))
                    .isInstanceOf(StorageException.class).hasMessageContaining("column 'k' is string")
                    .hasMessageContaining("keys.parquet");
            assertThatThrownBy(() -> catalog.table("doubles"))
                    .isInstanceOf(StorageException.class).hasMessageContaining("double.parquet")
                    .hasMessageContaining("'x'");
        }
    }

    private static long days(final LocalDate d) {
        return d.toEpochDay();
    }

    private static long cents(final BigDecimal d) {
        return d.movePointRight(2).longValueExact();
    }
}
