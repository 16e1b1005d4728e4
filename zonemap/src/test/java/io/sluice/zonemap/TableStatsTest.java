package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.Block;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Table statistics against brute force over the written rows, and distinct estimates within sensible ranges. */
class TableStatsTest {
    private static final Schema SCHEMA = Schema.parse(
            "k:int64,low:int32,u:int64,dt:date,price:decimal(15,2),flag:string,none:int64");
    private static final int N = 5 * Block.MAX_ROWS + 123;
    private static final String[] FLAGS = {"A", "N", "R"};

    @TempDir
    Path dir;

    private final Long[] k = new Long[N];
    private final Integer[] low = new Integer[N];
    private final Long[] u = new Long[N];
    private final Integer[] dt = new Integer[N];
    private final Long[] price = new Long[N];
    private final String[] flag = new String[N];
    private Table table;

    @BeforeEach
    void write() {
        final Random random = new Random(42);
        final List<Long> keys = new ArrayList<>();
        for (long i = 0; i < N; i++) {
            keys.add(3 * i + 7);
        }
        Collections.shuffle(keys, random);
        final Set<Long> unique = new HashSet<>();
        try (TableWriter writer = Store.create(dir).createTable("t", SCHEMA, "k")) {
            for (int r = 0; r < N; r++) {
                k[r] = keys.get(r);
                low[r] = random.nextInt(10);
                do {
                    u[r] = random.nextLong();
                } while (!unique.add(u[r]));
                dt[r] = random.nextInt(10) == 0 ? null : 8000 + random.nextInt(2001);
                price[r] = random.nextInt(50) == 0 ? null : (long) random.nextInt(10_000_000) - 5_000_000;
                flag[r] = random.nextInt(20) == 0 ? null : FLAGS[random.nextInt(FLAGS.length)];
                writer.column(0).appendLong(k[r]);
                writer.column(1).appendInt(low[r]);
                writer.column(2).appendLong(u[r]);
                if (dt[r] == null) writer.column(3).appendNull(); else writer.column(3).appendInt(dt[r]);
                if (price[r] == null) writer.column(4).appendNull(); else writer.column(4).appendLong(price[r]);
                if (flag[r] == null) writer.column(5).appendNull(); else writer.column(5).appendString(flag[r]);
                writer.column(6).appendNull();
                writer.endRow();
            }
            table = writer.finish();
        }
    }

    @AfterEach
    void close() {
        table.close();
    }

    @Test
    void countsAndRangesEqualBruteForce() {
        final TableStats stats = TableStats.of(table);
        assertThat(stats.rowCount()).isEqualTo(N);
        assertThat(stats.blockCount()).isEqualTo(6);
        assertNumbers(stats.column("k"), k);
        assertNumbers(stats.column("low"), low);
        assertNumbers(stats.column("u"), u);
        assertNumbers(stats.column("dt"), dt);
        assertNumbers(stats.column("price"), price);

        final ColumnStats flags = stats.column("flag");
        long nulls = 0;
        long min = 0;
        long max = 0;
        boolean any = false;
        for (final String f : flag) {
            if (f == null) {
                nulls++;
                continue;
            }
            final long key = TestData.prefixKey(f);
            min = !any || Long.compareUnsigned(key, min) < 0 ? key : min;
            max = !any || Long.compareUnsigned(key, max) > 0 ? key : max;
            any = true;
        }
        assertThat(flags.rowCount()).isEqualTo(N);
        assertThat(flags.nullCount()).isEqualTo(nulls);
        assertThat(flags.min()).isEqualTo(TestData.prefixKey("A")).isEqualTo(min);
        assertThat(flags.max()).isEqualTo(TestData.prefixKey("R")).isEqualTo(max);

        final ColumnStats none = stats.column("none");
        assertThat(none.hasValues()).isFalse();
        assertThat(none.nullCount()).isEqualTo(N);
        assertThat(none.distinctCount()).isZero();
        assertThat(stats.columns()).extracting(ColumnStats::column).isEqualTo(SCHEMA.names());
    }

    @Test
    void distinctEstimatesLieInSensibleRanges() {
        final TableStats stats = TableStats.of(table);
        // Unique and sorted: blocks are disjoint, each full of distinct keys.
        assertThat(stats.column("k").distinctCount()).isBetween((long) (0.9 * N), (long) N);
        // Ten values in every block.
        assertThat(stats.column("low").distinctCount()).isBetween(5L, 20L);
        // Unique random longs: every block spans almost the whole range, but draws rarely collide.
        assertThat(stats.column("u").distinctCount()).isBetween((long) (0.5 * N), (long) N);
        // 2001 days, each block dense over them.
        assertThat(stats.column("dt").distinctCount()).isBetween(1000L, 2001L);
        // Three flags; string zonemaps cannot tell, so only the hard bounds hold.
        final ColumnStats flags = stats.column("flag");
        assertThat(flags.distinctCount()).isBetween(2L, flags.nonNullCount());
    }

    @Test
    void zonemapsHandedInGiveTheSameStatsAsTheTable() {
        final ZoneMap[][] byColumn = new ZoneMap[SCHEMA.size()][];
        for (int c = 0; c < byColumn.length; c++) {
            byColumn[c] = table.zoneMaps(c);
        }
        final TableStats handedIn = TableStats.of(SCHEMA, table.blockCount(), byColumn);
        assertThat(handedIn.columns()).isEqualTo(TableStats.of(table).columns());
        assertThat(handedIn.rowCount()).isEqualTo(N);
    }

    @Test
    void disjointRangesAddUpAndDenseOverlappingRangesDoNot() {
        final ZoneMap[] disjoint = new ZoneMap[20];
        final ZoneMap[] dense = new ZoneMap[20];
        final ZoneMap[] sparse = new ZoneMap[20];
        for (int b = 0; b < 20; b++) {
            disjoint[b] = new ZoneMap(1000L * b, 1000L * b + 999, 0, 1000);
            dense[b] = new ZoneMap(0, 9, 0, 1000);
            sparse[b] = new ZoneMap(0, 1_000_000_000_000L, 0, 1000);
        }
        assertThat(ColumnStats.of("c", TypeKind.INT64, disjoint).distinctCount()).isBetween(18_000L, 20_000L);
        assertThat(ColumnStats.of("c", TypeKind.INT64, dense).distinctCount()).isBetween(5L, 10L);
        assertThat(ColumnStats.of("c", TypeKind.INT64, sparse).distinctCount()).isBetween(18_000L, 20_000L);
    }

    @Test
    void extremeRangesDoNotOverflow() {
        final ZoneMap[] wide = {new ZoneMap(Long.MIN_VALUE, Long.MAX_VALUE, 1, 100), new ZoneMap(-1, 1, 0, 3)};
        final ColumnStats stats = ColumnStats.of("c", TypeKind.INT64, wide);
        assertThat(stats.min()).isEqualTo(Long.MIN_VALUE);
        assertThat(stats.max()).isEqualTo(Long.MAX_VALUE);
        assertThat(stats.rowCount()).isEqualTo(103);
        assertThat(stats.distinctCount()).isBetween(2L, 102L);

        final ZoneMap[] strings = {new ZoneMap(0, -1, 0, 50)};
        assertThat(ColumnStats.of("s", TypeKind.STRING, strings).distinctCount()).isBetween(2L, 50L);
    }

    @Test
    void aTableWithoutBlocksHasEmptyStats() {
        final Schema schema = Schema.parse("k:int64,s:string");
        final TableStats stats = TableStats.of(schema, 0, new ZoneMap[][] {{}, {}});
        assertThat(stats.rowCount()).isZero();
        assertThat(stats.column("s").hasValues()).isFalse();
        assertThat(stats.column(0).distinctCount()).isZero();
    }

    private static void assertNumbers(final ColumnStats stats, final Number[] values) {
        long nulls = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (final Number v : values) {
            if (v == null) {
                nulls++;
            } else {
                min = Math.min(min, v.longValue());
                max = Math.max(max, v.longValue());
            }
        }
        assertThat(stats.rowCount()).as(stats.column()).isEqualTo(values.length);
        assertThat(stats.nullCount()).as(stats.column()).isEqualTo(nulls);
        assertThat(stats.min()).as(stats.column()).isEqualTo(min);
        assertThat(stats.max()).as(stats.column()).isEqualTo(max);
        assertThat(stats.distinctCount()).as(stats.column()).isBetween(1L, values.length - nulls);
    }
}
