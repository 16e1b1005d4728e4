package io.sluice.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableRoundTripTest {
    static final Schema SCHEMA = Schema.parse(
            "i64:int64,i32:int32,dec:decimal(15,2),d:date,low:string,high:string");
    static final String[] FLAGS = {"A", "N", "R", ""};

    @TempDir
    Path dir;

    /** Expected rows, kept as objects so the comparison does not reuse the code under test. */
    record Row(Long i64, Integer i32, Long dec, Integer d, String low, String high) {
    }

    static List<Row> rows(final int n, final long seed) {
        final Random random = new Random(seed);
        final long[] extremesL = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1};
        final int[] extremesI = {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1};
        final List<Row> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final boolean extreme = i < 4;
            rows.add(new Row(
                    i % 7 == 3 ? null : extreme ? extremesL[i] : random.nextLong(),
                    i % 11 == 5 ? null : extreme ? extremesI[i] : random.nextInt(),
                    i % 13 == 6 ? null : extreme ? (i % 2 == 0 ? 999_999_999_999_999_99L : -999_999_999_999_999_99L)
                            : random.nextLong() % 1_000_000_00L,
                    i % 17 == 8 ? null : extreme ? extremesI[i] : random.nextInt(20000),
                    i % 19 == 9 ? null : FLAGS[random.nextInt(FLAGS.length)],
                    i % 23 == 10 ? null : i % 5 == 0 ? "" : "s" + random.nextInt() + "\u00e9\u4e2d"));
        }
        return rows;
    }

    static void append(final TableWriter writer, final Row row) {
        if (row.i64() == null) writer.column(0).appendNull(); else writer.column(0).appendLong(row.i64());
        if (row.i32() == null) writer.column(1).appendNull(); else writer.column(1).appendInt(row.i32());
        if (row.dec() == null) writer.column(2).appendNull(); else writer.column(2).appendLong(row.dec());
        if (row.d() == null) writer.column(3).appendNull(); else writer.column(3).appendInt(row.d());
        if (row.low() == null) writer.column(4).appendNull(); else writer.column(4).appendString(row.low());
        if (row.high() == null) writer.column(5).appendNull(); else writer.column(5).appendString(row.high());
        writer.endRow();
    }

    static Row read(final Block block, final int r) {
        final LongVector i64 = (LongVector) block.column(0);
        final IntVector i32 = (IntVector) block.column(1);
        final LongVector dec = (LongVector) block.column(2);
        final IntVector d = (IntVector) block.column(3);
        final StringVector low = (StringVector) block.column(4);
        final StringVector high = (StringVector) block.column(5);
        return new Row(i64.isNull(r) ? null : i64.get(r), i32.isNull(r) ? null : i32.get(r),
                dec.isNull(r) ? null : dec.get(r), d.isNull(r) ? null : d.get(r), low.getString(r), high.getString(r));
    }

    Table write(final List<Row> rows, final String sortKey) {
        try (TableWriter writer = Store.create(dir).createTable("t", SCHEMA, sortKey)) {
            for (final Row row : rows) {
                append(writer, row);
            }
            return writer.finish();
        }
    }

    static List<Row> readAll(final Table table) {
        final List<Row> out = new ArrayList<>();
        for (int b = 0; b < table.blockCount(); b++) {
            final Block block = table.readBlock(b);
            for (int r = 0; r < block.rowCount(); r++) {
                out.add(read(block, r));
            }
        }
        return out;
    }

    @Test
    void everyTypeRoundTripsWithNullsEmptyStringsAndExtremes() {
        final List<Row> rows = rows(20_000, 42);
        try (Table table = write(rows, null)) {
            assertThat(table.rowCount()).isEqualTo(20_000);
            assertThat(table.blockCount()).isEqualTo(3);
            assertThat(table.blockRowCount(0)).isEqualTo(Block.MAX_ROWS);
            assertThat(table.blockRowCount(2)).isEqualTo(20_000 - 2 * Block.MAX_ROWS);
            assertThat(readAll(table)).containsExactlyElementsOf(rows);
            final Block block = table.readBlock(0);
            assertThat(((StringVector) block.column(4)).isDictionary()).isTrue();
            assertThat(((StringVector) block.column(5)).isDictionary()).isFalse();
        }
    }

    @Test
    void projectionReadsOnlyTheNamedColumnsInOrder() {
        final List<Row> rows = rows(100, 7);
        try (Table table = write(rows, null)) {
            final Block block = table.readBlock(0, 5, 0);
            assertThat(block.columns()).hasSize(2);
            for (int r = 0; r < 100; r++) {
                assertThat(((StringVector) block.column(0)).getString(r)).isEqualTo(rows.get(r).high());
                assertThat(block.column(1).isNull(r) ? null : ((LongVector) block.column(1)).get(r))
                        .isEqualTo(rows.get(r).i64());
            }
        }
    }

    @Test
    void sortByKeyOrdersRowsNullsFirstAndKeepsTheMultiset() {
        final List<Row> rows = rows(10_000, 3);
        try (Table table = write(rows, "i32")) {
            final List<Row> read = readAll(table);
            assertThat(read).containsExactlyInAnyOrderElementsOf(rows);
            for (int i = 1; i < read.size(); i++) {
                final Integer a = read.get(i - 1).i32();
                final Integer b = read.get(i).i32();
                assertThat(a == null || (b != null && a <= b)).as("row %d in order", i).isTrue();
            }
            assertThat(table.sortKey()).isEqualTo("i32");
        }
    }

    @Test
    void emptyTableHasNoBlocks() {
        try (Table table = write(List.of(), null)) {
            assertThat(table.rowCount()).isZero();
            assertThat(table.blockCount()).isZero();
        }
    }

    @Test
    void unfinishedWriterLeavesNothingBehind() throws Exception {
        final Store store = Store.create(dir);
        try (TableWriter writer = store.createTable("half", SCHEMA, null)) {
            for (final Row row : rows(9000, 1)) {
                append(writer, row);
            }
        }
        assertThat(store.tableNames()).isEmpty();
        try (var children = Files.list(dir)) {
            assertThat(children.toList()).containsExactly(dir.resolve(StoreLock.FILE));
        }
        assertThat(Files.size(dir.resolve(StoreLock.FILE))).as("the lock is released").isZero();
        assertThatThrownBy(() -> store.table("half")).hasMessageContaining("no table 'half'");
    }
}
