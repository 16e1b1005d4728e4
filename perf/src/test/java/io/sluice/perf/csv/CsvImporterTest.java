package io.sluice.perf.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.StringVector;
import io.sluice.format.ZoneMap;
import io.sluice.storage.Store;
import io.sluice.storage.StoreLock;
import io.sluice.storage.TableSpec;
import io.sluice.storage.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CsvImporterTest {
    static final Schema SCHEMA = Schema.parse("k:int64,n:int32,v:decimal(15,2),d:date,s:string");

    @TempDir
    Path dir;

    Path csv(final String text) throws IOException {
        final Path file = dir.resolve("in.csv");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    Store store() {
        return Store.create(dir.resolve("store"));
    }

    /** What the store directory holds besides its lock file (which an import always creates). */
    List<String> storeEntries() throws IOException {
        try (Stream<Path> children = Files.list(dir.resolve("store"))) {
            return children.map(p -> p.getFileName().toString()).filter(name -> !name.equals(StoreLock.FILE)).toList();
        }
    }

    @Test
    void everyTypeNullsAndQuoting() throws IOException {
        final Path file = csv("k,n,v,d,s\r\n"
                + "1,2,3.5,1998-12-01,plain\r\n"
                + "9223372036854775807,2147483647,9999999999999.99,9999-12-31,\"with, comma\"\r\n"
                + "-9223372036854775808,-2147483648,-9999999999999.99,0001-01-01,\"say \"\"hi\"\"\"\r\n"
                + ",,,,\r\n"
                + "5,6,0.07,1970-01-01,\"\"\r\n"
                + "\"6\",\"7\",\"-0.5\",\"2000-02-29\",\"two\nlines, \u00e9\"\r\n");
        try (Table table = CsvImporter.importFile(store(), file, "t", SCHEMA, null)) {
            assertThat(table.rowCount()).isEqualTo(6);
            assertThat(table.sortKey()).isNull();
            final Block b = table.readBlock(0);
            final LongVector k = (LongVector) b.column(0);
            final IntVector n = (IntVector) b.column(1);
            final LongVector v = (LongVector) b.column(2);
            final IntVector d = (IntVector) b.column(3);
            final StringVector s = (StringVector) b.column(4);
            assertThat(new long[] {k.get(0), k.get(1), k.get(2), k.get(4), k.get(5)})
                    .containsExactly(1, Long.MAX_VALUE, Long.MIN_VALUE, 5, 6);
            assertThat(new int[] {n.get(0), n.get(1), n.get(2), n.get(4), n.get(5)})
                    .containsExactly(2, Integer.MAX_VALUE, Integer.MIN_VALUE, 6, 7);
            assertThat(new long[] {v.get(0), v.get(1), v.get(2), v.get(4), v.get(5)})
                    .containsExactly(350, 999_999_999_999_999L, -999_999_999_999_999L, 7, -50);
            assertThat(new long[] {d.get(0), d.get(1), d.get(2), d.get(4), d.get(5)}).containsExactly(
                    LocalDate.of(1998, 12, 1).toEpochDay(), LocalDate.of(9999, 12, 31).toEpochDay(),
                    LocalDate.of(1, 1, 1).toEpochDay(), 0, LocalDate.of(2000, 2, 29).toEpochDay());
            assertThat(s.getString(0)).isEqualTo("plain");
            assertThat(s.getString(1)).isEqualTo("with, comma");
            assertThat(s.getString(2)).isEqualTo("say \"hi\"");
            assertThat(s.getString(5)).isEqualTo("two\nlines, \u00e9");
            // Empty unquoted is NULL in every type; quoted empty is the empty string.
            for (int c = 0; c < 5; c++) {
                assertThat(b.column(c).isNull(3)).as("column %d row 3", c).isTrue();
                assertThat(b.column(c).nullCount()).as("column %d nulls", c).isEqualTo(1);
            }
            assertThat(s.isNull(4)).isFalse();
            assertThat(s.getString(4)).isEmpty();
            final ZoneMap kz = table.zoneMap(0, 0);
            assertThat(kz.min()).isEqualTo(Long.MIN_VALUE);
            assertThat(kz.max()).isEqualTo(Long.MAX_VALUE);
            assertThat(kz.nullCount()).isEqualTo(1);
        }
    }

    @Test
    void sortByAColumnAcrossBlocks() throws IOException {
        final StringBuilder sb = new StringBuilder("k,n,v,d,s\n");
        final int rows = 20_000;
        for (int i = 0; i < rows; i++) {
            final long key = (i * 7919L) % rows;
            sb.append(key).append(',').append(i).append(",1.00,2020-01-01,r").append(i).append('\n');
        }
        try (Table table = CsvImporter.importFile(store(), csv(sb.toString()), "sorted", SCHEMA, "k")) {
            assertThat(table.rowCount()).isEqualTo(rows);
            assertThat(table.sortKey()).isEqualTo("k");
            assertThat(table.blockCount()).isEqualTo(3);
            long expected = 0;
            for (int blk = 0; blk < table.blockCount(); blk++) {
                final LongVector k = (LongVector) table.readBlock(blk, 0).column(0);
                for (int r = 0; r < k.rowCount(); r++) {
                    assertThat(k.get(r)).isEqualTo(expected++);
                }
            }
        }
    }

    /** A CSV body after the header, the line the error must name, and what the message must say. */
    record BadRow(String name, String body, int line, String problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<BadRow> badRows() {
        final String ok = "1,2,3.00,2020-01-01,a\n";
        return Stream.of(
                new BadRow("too few fields", ok + "2,3,4.00,2020-01-01\n", 3, "has 4 fields but the schema has 5"),
                new BadRow("too many fields", "1,2,3.00,2020-01-01,a,b\n", 2, "has 6 fields but the schema has 5"),
                new BadRow("bad int64", ok + "x1,2,3.00,2020-01-01,a\n", 3,
                        "column 'k' (int64): value \"x1\" is not an int64"),
                new BadRow("int32 out of range", "1,2147483648,3.00,2020-01-01,a\n", 2,
                        "column 'n' (int32): value \"2147483648\" is out of range"),
                new BadRow("no such date", "1,2,3.00,2020-02-30,a\n", 2,
                        "column 'd' (date): value \"2020-02-30\" is not a calendar date"),
                new BadRow("date format", "1,2,3.00,01/02/2020,a\n", 2,
                        "column 'd' (date): value \"01/02/2020\" is not a date"),
                new BadRow("fraction digits", ok + ok + "1,2,3.001,2020-01-01,a\n", 4,
                        "column 'v' (decimal(15,2)): value \"3.001\" has 3 fractional digits"),
                new BadRow("integer digits", "1,2,12345678901234.5,2020-01-01,a\n", 2,
                        "value \"12345678901234.5\" has 14 integer digits"),
                new BadRow("quoted empty number", "1,\"\",3.00,2020-01-01,a\n", 2,
                        "leave the field empty, without quotes, for NULL"),
                new BadRow("after a multi-line record", "1,2,3.00,2020-01-01,\"a\nb\nc\"\n" + ok
                        + "bad,2,3.00,2020-01-01,a\n", 6, "value \"bad\""),
                new BadRow("unclosed quote", ok + "1,2,3.00,2020-01-01,\"open\n", 3, "never closed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRows")
    void aBadRowNamesFileLineColumnAndValueAndLeavesNoTable(final BadRow bad) throws IOException {
        final Path file = csv("k,n,v,d,s\n" + bad.body());
        final Store store = store();
        assertThatThrownBy(() -> CsvImporter.importFile(store, file, "t", SCHEMA, null))
                .isInstanceOf(CsvFormatException.class)
                .hasMessageStartingWith(file + ":" + bad.line() + ": ")
                .hasMessageContaining(bad.problem())
                .satisfies(e -> assertThat(((CsvFormatException) e).line()).isEqualTo(bad.line()));
        assertThat(store.tableNames()).isEmpty();
        assertThat(storeEntries()).isEmpty();
    }

    @Test
    void aBadRowAfterManyBlocksStillLeavesNoTable() throws IOException {
        final StringBuilder sb = new StringBuilder("k,n,v,d,s\n");
        for (int i = 0; i < 30_000; i++) {
            sb.append(i).append(",1,1.00,2020-01-01,x\n");
        }
        sb.append("30000,1,1.00,2020-13-01,x\n");
        final Store store = store();
        assertThatThrownBy(() -> CsvImporter.importFile(store, csv(sb.toString()), "t", SCHEMA, null))
                .hasMessageContaining(":30002: column 'd'");
        assertThat(storeEntries()).isEmpty();
    }

    @Test
    void theHeaderMustMatchTheSchemasColumnCount() throws IOException {
        final Store store = store();
        assertThatThrownBy(() -> CsvImporter.importFile(store, csv("k,n,v\n1,2,3\n"), "t", SCHEMA, null))
                .isInstanceOf(CsvFormatException.class)
                .hasMessageContaining(":1: the header's columns [k, n, v] do not match the schema's [k, n, v, d, s]:"
                        + " missing d, s;");
        assertThatThrownBy(() -> CsvImporter.importFile(store, csv(""), "t", SCHEMA, null))
                .hasMessageContaining(":1: the file is empty");
        assertThat(storeEntries()).isEmpty();
    }

    @Test
    void aHeaderOnlyFileMakesAnEmptyTable() throws IOException {
        try (Table table = CsvImporter.importFile(store(), csv("k,n,v,d,s\n"), "t", SCHEMA, null)) {
            assertThat(table.rowCount()).isZero();
        }
    }

    @Test
    void missingFileUnknownSortColumnAndExistingTableAreClearErrors() throws IOException {
        final Store store = store();
        assertThatThrownBy(() -> CsvImporter.importFile(store, dir.resolve("nope.csv"), "t", SCHEMA, null))
                .isInstanceOf(StorageException.class).hasMessageContaining("nope.csv does not exist");
        final Path file = csv("k,n,v,d,s\n1,2,3,2020-01-01,a\n");
        assertThatThrownBy(() -> CsvImporter.importFile(store, file, "t", SCHEMA, "zz"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no column 'zz'");
        CsvImporter.importFile(store, file, "t", SCHEMA, null).close();
        assertThatThrownBy(() -> CsvImporter.importFile(store, file, "t", SCHEMA, null))
                .isInstanceOf(StorageException.class).hasMessageContaining("already exists");
    }

    @Test
    void invalidUtf8IsReported() throws IOException {
        final Path file = dir.resolve("latin1.csv");
        Files.write(file, new byte[] {'k', ',', 'n', ',', 'v', ',', 'd', ',', 's', '\n', '1', ',', '2', ',', '3', ',',
            '2', '0', '2', '0', '-', '0', '1', '-', '0', '1', ',', (byte) 0xE9, '\n'});
        final Store store = store();
        assertThatThrownBy(() -> CsvImporter.importFile(store, file, "t", SCHEMA, null))
                .isInstanceOf(CsvFormatException.class).hasMessageContaining("not valid UTF-8");
        assertThat(storeEntries()).isEmpty();
    }

    @Test
    void headerColumnsInAnotherOrderAndCaseAreMappedByName() throws IOException {
        final Path file = csv("S,d,V,K,n\nfirst,2020-01-02,1.25,7,3\nsecond,1999-12-31,-0.50,8,4\n");
        try (Table table = CsvImporter.importFile(store(), file, "t", SCHEMA, null)) {
            final Block b = table.readBlock(0);
            assertThat(((LongVector) b.column(0)).get(0)).isEqualTo(7);
            assertThat(((LongVector) b.column(0)).get(1)).isEqualTo(8);
            assertThat(((IntVector) b.column(1)).get(1)).isEqualTo(4);
            assertThat(((LongVector) b.column(2)).get(0)).isEqualTo(125);
            assertThat(((LongVector) b.column(2)).get(1)).isEqualTo(-50);
            assertThat(((IntVector) b.column(3)).get(0)).isEqualTo((int) LocalDate.of(2020, 1, 2).toEpochDay());
            assertThat(((StringVector) b.column(4)).getString(1)).isEqualTo("second");
        }
    }

    @Test
    void missingUnknownAndRepeatedHeaderNamesAreListedWithBothSets() throws IOException {
        final Store store = store();
        assertThatThrownBy(() -> CsvImporter.importFile(store, csv("k,n,x,d,s\n1,2,3,2020-01-01,a\n"), "t", SCHEMA, null))
                .isInstanceOf(CsvFormatException.class)
                .hasMessage(dir.resolve("in.csv") + ":1: the header's columns [k, n, x, d, s] do not match the schema's"
                        + " [k, n, v, d, s]: missing v; unknown x; header names match schema names ignoring case, in any"
                        + " order (a file without a header takes --no-header, and its fields are then in schema order)");
        assertThatThrownBy(() -> CsvImporter.importFile(store, csv("k,n,v,d,K\n1,2,3,2020-01-01,4\n"), "t", SCHEMA, null))
                .hasMessageContaining("missing s; named twice K;");
        assertThat(storeEntries()).isEmpty();
    }

    @Test
    void withoutAHeaderFieldsAreInSchemaOrderAndTheFirstLineIsARow() throws IOException {
        final Path file = csv("1,2,3.00,2020-01-01,a\n4,5,6.00,2020-01-02,b\n");
        try (Table table = CsvImporter.importFile(store(), file, TableSpec.of("t", SCHEMA), false, rows -> { })) {
            assertThat(table.rowCount()).isEqualTo(2);
            final Block b = table.readBlock(0);
            assertThat(((LongVector) b.column(0)).get(0)).isEqualTo(1);
            assertThat(((StringVector) b.column(4)).getString(1)).isEqualTo("b");
        }
    }

    @Test
    void invalidUtf8FarIntoTheFileNamesItsLine() throws IOException {
        final StringBuilder text = new StringBuilder("k,n,v,d,s\n");
        for (int i = 0; i < 5000; i++) {
            text.append(i).append(",1,1.00,2020-01-01,some text to fill the decoder's buffers\n");
        }
        final byte[] good = text.toString().getBytes(StandardCharsets.UTF_8);
        final byte[] bad = "5000,1,1.00,2020-01-01,caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        final byte[] all = java.util.Arrays.copyOf(good, good.length + bad.length);
        System.arraycopy(bad, 0, all, good.length, bad.length);
        final Path file = Files.write(dir.resolve("latin1.csv"), all);
        // Line 1 is the header, lines 2..5001 the good rows: the Latin-1 byte is on line 5002.
        assertThatThrownBy(() -> CsvImporter.importFile(store(), file, "t", SCHEMA, null))
                .isInstanceOf(CsvFormatException.class)
                .hasMessageStartingWith(file + ":5002: the file is not valid UTF-8 on this line");
        assertThat(storeEntries()).isEmpty();
    }
}
