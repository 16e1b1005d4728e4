package io.sluice.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StorageException;
import io.sluice.format.StringVector;
import io.sluice.format.ZoneMap;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parquet files DuckDB writes, read through the storage SPI: every value of every supported type (nulls
 * included) equals what DuckDB reads from the same file, whatever the compression, whether a row group is
 * one block or several, in data pages of version 1 or 2 (plain, dictionary and delta encodings); zonemaps
 * are the row groups' statistics; a file of an unsupported type, a damaged file and a folder of files with
 * different columns are errors naming the file and what to do.
 */
class ParquetTableTest {
    private static final int ROWS = 30_000;
    /** The columns of {@code t}: one of each type Sluice reads, most with nulls. */
    private static final String SELECT = "select i32, i64, d, dec, big, s from t order by i64";

    @TempDir
    static Path dir;

    private static Connection duck;

    @BeforeAll
    static void createRows() throws Exception {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            s.execute("create table t as select"
                    + " case when i % 7 = 0 then null else (i * 37 % 1000 - 500)::integer end as i32,"
                    + " i::bigint * 3 as i64,"
                    + " case when i % 11 = 0 then null else (date '1992-01-01' + (i % 2500)::integer) end as d,"
                    + " (((i * 7919 % 100000) - 50000) / 100)::decimal(15,2) as dec,"
                    + " case when i % 5 = 0 then null else (i::decimal(30,4) * 1234567890123.0001)::decimal(30,4) end as big,"
                    + " case when i % 13 = 0 then null else 'name#' || (i * 31 % 977)::varchar end as s"
                    + " from range(" + ROWS + ") r(i)");
        }
    }

    @AfterAll
    static void close() throws Exception {
        duck.close();
    }

    private static Path write(final String name, final String options) throws Exception {
        final Path file = dir.resolve(name);
        try (Statement s = duck.createStatement()) {
            s.execute("copy (" + SELECT + ") to '" + file + "' (format parquet" + options + ")");
        }
        return file;
    }

    private static List<Object[]> duckRows(final Path file) throws Exception {
        final List<Object[]> rows = new ArrayList<>();
        try (Statement s = duck.createStatement();
             ResultSet rs = s.executeQuery("select i32, i64, d, dec, big, s from read_parquet('" + file + "')")) {
            while (rs.next()) {
                final Object[] row = new Object[6];
                for (int c = 0; c < 6; c++) {
                    row[c] = rs.getObject(c + 1);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static Object value(final ColumnVector v, final int row) {
        if (v.isNull(row)) {
            return null;
        }
        if (v instanceof IntVector iv) {
            return v.type().equals(ColumnType.DATE) ? LocalDate.ofEpochDay(iv.get(row)) : (Object) iv.get(row);
        }
        if (v instanceof LongVector lv) {
            return v.type().kind() == io.sluice.format.TypeKind.DECIMAL
                    ? BigDecimal.valueOf(lv.get(row), v.type().scale()) : (Object) lv.get(row);
        }
        if (v instanceof Decimal128Vector dv) {
            return dv.get(row);
        }
        return ((StringVector) v).getString(row);
    }

    private static void assertSameRows(final ParquetTable table, final List<Object[]> expected) {
        int row = 0;
        for (int b = 0; b < table.blockCount(); b++) {
            final Block block = table.readBlock(b);
            assertThat(block.rowCount()).isEqualTo(table.blockRowCount(b));
            for (int r = 0; r < block.rowCount(); r++, row++) {
                final Object[] want = expected.get(row);
                for (int c = 0; c < want.length; c++) {
                    final Object got = value(block.column(c), r);
                    final String where = "block " + b + " row " + r + " column " + table.schema().field(c).name();
                    if (want[c] == null) {
                        assertThat(got).as(where).isNull();
                    } else if (want[c] instanceof BigDecimal d) {
                        assertThat((BigDecimal) got).as(where).isEqualByComparingTo(d);
                    } else if (want[c] instanceof Number n) {
                        assertThat(((Number) got).longValue()).as(where).isEqualTo(n.longValue());
                    } else {
                        assertThat(String.valueOf(got)).as(where).isEqualTo(String.valueOf(want[c]));
                    }
                }
            }
        }
        assertThat(row).isEqualTo(expected.size());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compression snappy", "compression zstd", "compression gzip", "compression uncompressed",
        "compression zstd, parquet_version v2"})
    void everyValueOfEveryTypeEqualsDuckDbsWhateverTheCompressionAndPageVersion(final String options) throws Exception {
        final Path file = write("t_" + options.replaceAll("[^a-z0-9]", "_") + ".parquet", ", " + options
                + ", row_group_size 4096");
        try (ParquetTable table = ParquetTable.open("t", List.of(file))) {
            assertThat(table.schema().toString())
                    .isEqualTo("i32:int32,i64:int64,d:date,dec:decimal(15,2),big:decimal(30,4),s:string");
            assertThat(table.rowCount()).isEqualTo(ROWS);
            assertSameRows(table, duckRows(file));
        }
    }

    @Test
    void aRowGroupOfMoreThan8192RowsIsSeveralBlocksEachBoundedByTheRowGroupsStatistics() throws Exception {
        final Path file = write("big_groups.parquet", ", row_group_size 1000000");
        try (ParquetTable table = ParquetTable.open("t", List.of(file))) {
            assertThat(table.blockCount()).isEqualTo((ROWS + Block.MAX_ROWS - 1) / Block.MAX_ROWS);
            assertSameRows(table, duckRows(file));
            for (int b = 0; b < table.blockCount(); b++) {
                final Block block = table.readBlock(b, 1);
                final ZoneMap exact = ZoneMap.of(block.column(0));
                final ZoneMap z = table.zoneMap(b, 1);
                assertThat(z.min()).isLessThanOrEqualTo(exact.min());
                assertThat(z.max()).isGreaterThanOrEqualTo(exact.max());
                assertThat(z.rowCount()).isEqualTo(block.rowCount());
            }
        }
    }

    @Test
    void zoneMapsAreTheRowGroupStatisticsDuckDbReports() throws Exception {
        final Path file = write("stats.parquet", ", row_group_size 4096");
        try (ParquetTable table = ParquetTable.open("t", List.of(file));
             Statement s = duck.createStatement();
             ResultSet rs = s.executeQuery("select row_group_id, path_in_schema, stats_min_value, stats_max_value,"
                     + " stats_null_count, row_group_num_rows from parquet_metadata('" + file + "')"
                     + " where path_in_schema in ('i32', 'i64', 'd', 'dec', 's') order by row_group_id")) {
            int checked = 0;
            while (rs.next()) {
                final int block = rs.getInt(1);
                final String column = rs.getString(2);
                final ZoneMap z = table.zoneMap(block, table.schema().require(column));
                assertThat(z.rowCount()).isEqualTo(rs.getInt(6));
                assertThat(z.nullCount()).as("nulls of %s in %d", column, block).isEqualTo(rs.getInt(5));
                assertThat(z.min()).as("min of %s in %d", column, block).isEqualTo(key(column, rs.getString(3)));
                assertThat(z.max()).as("max of %s in %d", column, block).isEqualTo(key(column, rs.getString(4)));
                checked++;
            }
            assertThat(checked).isEqualTo(5 * table.blockCount());
        }
    }

    /** A statistic as DuckDB prints it, as a zonemap key. */
    private static long key(final String column, final String text) {
        return switch (column) {
            case "d" -> LocalDate.parse(text).toEpochDay();
            case "dec" -> new BigDecimal(text).movePointRight(2).longValueExact();
            case "s" -> io.sluice.format.StringKey.of(text);
            default -> Long.parseLong(text);
        };
    }

    @Test
    void aColumnOfATypeSluiceDoesNotReadIsAnErrorNamingTheFileColumnTypeAndWhatIsRead() throws Exception {
        final Path file = dir.resolve("doubles.parquet");
        try (Statement s = duck.createStatement()) {
            s.execute("copy (select 1::bigint as k, 2.5::double as price) to '" + file + "' (format parquet)");
        }
        assertThatThrownBy(() -> ParquetTable.open("doubles", List.of(file)))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("column 'price' has type DOUBLE")
                .hasMessageContaining("it reads INT32 and INT64")
                .hasMessageContaining("cast the column");
    }

    @Test
    void pagesOfACodecSluiceDoesNotReadAreAnErrorNamingTheFileAndCodec() throws Exception {
        final Path file = write("brotli.parquet", ", compression brotli");
        try (ParquetTable table = ParquetTable.open("t", List.of(file))) {
            assertThatThrownBy(() -> table.readBlock(0)).isInstanceOf(UnsupportedCodecException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("compressed with BROTLI")
                    .hasMessageContaining("it reads UNCOMPRESSED, SNAPPY, GZIP, ZSTD");
        }
    }

    @Test
    void aDamagedFileIsAnErrorNamingItNeverRows() throws Exception {
        final Path good = write("good.parquet", "");
        final byte[] bytes = Files.readAllBytes(good);
        final Path truncated = Files.write(dir.resolve("truncated.parquet"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
        assertThatThrownBy(() -> ParquetTable.open("truncated", List.of(truncated)))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(truncated.toString())
                .hasMessageContaining("damaged, truncated or not a Parquet file");

        // The footer intact, a data page's bytes overwritten: the read fails naming the file and row group.
        final byte[] damaged = bytes.clone();
        for (int i = 8; i < 200; i++) {
            damaged[i] = (byte) 0x5A;
        }
        final Path pages = Files.write(dir.resolve("pages.parquet"), damaged);
        try (ParquetTable table = ParquetTable.open("pages", List.of(pages))) {
            assertThatThrownBy(() -> {
                for (int b = 0; b < table.blockCount(); b++) {
                    table.readBlock(b);
                }
            }).isInstanceOf(StorageException.class)
                    .hasMessageContaining(pages.toString())
                    .hasMessageContaining("row group 0")
                    .hasMessageContaining("write it again");
        }
    }

    @Test
    void aFolderIsOneTableOfItsFilesAndAFileWithOtherColumnsIsRefused() throws Exception {
        final Path root = Files.createDirectories(dir.resolve("catalog"));
        final Path parts = Files.createDirectories(root.resolve("parts"));
        try (Statement s = duck.createStatement()) {
            s.execute("copy (select i::bigint as k from range(100) r(i)) to '" + parts.resolve("a.parquet") + "' (format parquet)");
            s.execute("copy (select i::bigint as k from range(100, 250) r(i)) to '" + parts.resolve("b.parquet") + "' (format parquet)");
            s.execute("copy (select 'x' as v) to '" + root.resolve("single.parquet") + "' (format parquet)");
        }
        try (ParquetCatalog catalog = ParquetCatalog.open(root)) {
            assertThat(catalog.tableNames()).containsExactly("parts", "single");
            final ParquetTable t = catalog.table("parts");
            assertThat(t.rowCount()).isEqualTo(250);
            assertThat(t.blockCount()).isEqualTo(2);
            assertThat(t.zoneMap(1, 0)).isEqualTo(new ZoneMap(100, 249, 0, 150));
            assertThat(t.sortKey()).as("k ascends over both files").isEqualTo("k");
            assertThatThrownBy(() -> catalog.table("lineitem")).isInstanceOf(StorageException.class)
                    .hasMessageContaining("has no table 'lineitem' (it has [parts, single])");
        }
        try (Statement s = duck.createStatement()) {
            s.execute("copy (select 'x' as k) to '" + parts.resolve("c.parquet") + "' (format parquet)");
        }
        try (ParquetCatalog catalog = ParquetCatalog.open(root)) {
            assertThatThrownBy(() -> catalog.table("parts")).isInstanceOf(StorageException.class)
                    .hasMessageContaining(parts.resolve("c.parquet") + " of table 'parts' has columns k:string")
                    .hasMessageContaining("same columns");
        }
    }

    @Test
    void aTableWhoseRowsAreNotInKeyOrderHasNoSortKey() throws Exception {
        final Path file = dir.resolve("shuffled.parquet");
        try (Statement s = duck.createStatement()) {
            // Row groups ascend without overlap, but rows inside the first one do not.
            s.execute("copy (select case when i < 4096 then 4095 - i else i end::bigint as k from range(10000) r(i))"
                    + " to '" + file + "' (format parquet, row_group_size 4096)");
        }
        try (ParquetTable table = ParquetTable.open("shuffled", List.of(file))) {
            assertThat(table.blockCount()).isGreaterThan(1);
            assertThat(table.sortKey()).isNull();
        }
    }
}
