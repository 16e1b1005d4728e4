package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan reads the columns its filter tests first and the others only for the rows that pass: every
 * filter gives the rows a filter over the rows written keeps (none, one per block, some, all), with NULLs,
 * plain and dictionary strings and dates among the columns read late; a block whose rows all pass is
 * still the whole block, with its zonemaps and stored bytes; one where none does gives no batch.
 */
class LateMaterializedScanTest {
    private static final int BLOCK_ROWS = 1000;
    private static final int ROWS = 5 * BLOCK_ROWS + 321;
    private static final List<String> COLUMNS = List.of("k", "v", "s", "g", "d");
    private static final String[] GROUPS = {"AIR", "RAIL", "SHIP", "TRUCK"};

    @TempDir
    static Path dir;
    private static StoreCatalog catalog;
    private static final List<Object[]> WRITTEN = new ArrayList<>();

    @BeforeAll
    static void writeTable() {
        final Store store = Store.create(dir.resolve("store"));
        final TableSpec spec = TableSpec.of("t", Schema.parse("k:int64,v:int64,s:string,g:string,d:date"))
                .withPresortedKey("k").withBlockRows(BLOCK_ROWS);
        final Random random = new Random(1201);
        try (TableWriter writer = store.write(spec)) {
            for (int k = 0; k < ROWS; k++) {
                final Object[] row = {
                        (long) k,
                        k % 7 == 3 ? null : (long) random.nextInt(1000),
                        k % 11 == 5 ? null : k % 13 == 0 ? "" : "comment " + random.nextInt() + " \u00e9",
                        GROUPS[random.nextInt(GROUPS.length)],
                        k % 17 == 2 ? null : 9000 + random.nextInt(3000)};
                writer.column(0).appendLong((Long) row[0]);
                append(writer, 1, row[1]);
                append(writer, 2, row[2]);
                append(writer, 3, row[3]);
                append(writer, 4, row[4]);
                writer.endRow();
                WRITTEN.add(row);
            }
            writer.finish().close();
        }
        catalog = new StoreCatalog(store);
    }

    private static void append(final TableWriter writer, final int column, final Object value) {
        if (value == null) {
            writer.column(column).appendNull();
        } else if (value instanceof Long l) {
            writer.column(column).appendLong(l);
        } else if (value instanceof Integer i) {
            writer.column(column).appendInt(i);
        } else {
            writer.column(column).appendString((String) value);
        }
    }

    @AfterAll
    static void close() {
        catalog.close();
    }

    private static List<Batch> scan(final List<String> columns, final Expr filter) {
        return scan(columns, filter, java.util.Set.of());
    }

    /** The batches of a scan whose operator above drops the {@code dropped} columns. */
    private static List<Batch> scan(final List<String> columns, final Expr filter, final java.util.Set<String> dropped) {
        final TableScan scan = new TableScan(catalog.table("t"), columns, List.of(), filter);
        scan.dropAbove(dropped);
        final List<Batch> out = new ArrayList<>();
        final Source.Reader reader = scan.openReader();
        for (int m = 0; m < scan.morselCount(); m++) {
            reader.produce(m, out::add);
        }
        return out;
    }

    private static Object value(final ColumnVector v, final int r) {
        if (v.isNull(r)) {
            return null;
        }
        if (v instanceof LongVector l) {
            return l.get(r);
        }
        if (v instanceof IntVector i) {
            return i.get(r);
        }
        return ((StringVector) v).getString(r);
    }

    private static List<List<Object>> rows(final List<Batch> batches) {
        final List<List<Object>> rows = new ArrayList<>();
        for (final Batch b : batches) {
            for (int r = 0; r < b.rowCount(); r++) {
                final List<Object> row = new ArrayList<>();
                for (int c = 0; c < b.columnCount(); c++) {
                    row.add(value(b.column(c), r));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The rows written that {@code keep} passes, of the named columns. */
    private static List<List<Object>> expected(final List<String> columns, final Predicate<Object[]> keep) {
        final List<List<Object>> rows = new ArrayList<>();
        for (final Object[] row : WRITTEN) {
            if (keep.test(row)) {
                final List<Object> projected = new ArrayList<>();
                for (final String c : columns) {
                    projected.add(row[COLUMNS.indexOf(c)]);
                }
                rows.add(projected);
            }
        }
        return rows;
    }

    @Test
    void aFilterNoRowPassesGivesNoBatch() {
        assertThat(scan(COLUMNS, Expr.lt(col("v"), Expr.lit(0)))).isEmpty();
    }

    @Test
    void oneRowPerBlockIsReadWithEveryColumn() {
        final Expr filter = Expr.eq(Expr.lit(417), col("k"));
        final List<Batch> batches = scan(COLUMNS, Expr.or(filter, Expr.eq(col("k"), Expr.lit(3 * BLOCK_ROWS + 5))));
        assertThat(rows(batches)).isEqualTo(expected(COLUMNS,
                r -> (Long) r[0] == 417 || (Long) r[0] == 3 * BLOCK_ROWS + 5));
        assertThat(batches).hasSize(2).allSatisfy(b -> assertThat(b.storedBlock()).isNull());
    }

    @Test
    void someRowsOfEveryBlockKeepTheirNullsStringsAndDates() {
        final List<String> columns = List.of("s", "v", "d", "g", "k");
        final List<Batch> batches = scan(columns, Expr.lt(col("v"), Expr.lit(300)));
        assertThat(rows(batches)).isEqualTo(expected(columns, r -> r[1] != null && (Long) r[1] < 300));
        assertThat(batches).hasSize(6).allSatisfy(b -> {
            assertThat(b.sortedBy()).as("the key stays sorted").isEqualTo(4);
            assertThat(b.storedBlock()).isNull();
        });
        assertThat(batches).anySatisfy(b -> assertThat(((StringVector) b.column(3)).isDictionary()).isTrue());
    }

    @Test
    void aDictionaryStringFilterReadsTheNumbersLate() {
        final List<Batch> batches = scan(COLUMNS, Expr.eq(col("g"), Expr.str("RAIL")));
        assertThat(rows(batches)).isEqualTo(expected(COLUMNS, r -> r[3].equals("RAIL")));
    }

    @Test
    void aBlockWhoseRowsAllPassIsTheWholeStoredBlock() {
        // Keys 2000..2999 and 5000..5320 pass whole; 1999 only one row of its block.
        final Expr filter = Expr.ge(col("k"), Expr.lit(2 * BLOCK_ROWS - 1));
        final List<Batch> batches = scan(COLUMNS, Expr.and(filter, Expr.or(Expr.lt(col("k"), Expr.lit(3 * BLOCK_ROWS)),
                Expr.ge(col("k"), Expr.lit(5 * BLOCK_ROWS)))));
        assertThat(rows(batches)).isEqualTo(expected(COLUMNS, r -> {
            final long k = (Long) r[0];
            return k >= 2 * BLOCK_ROWS - 1 && (k < 3 * BLOCK_ROWS || k >= 5 * BLOCK_ROWS);
        }));
        assertThat(batches).extracting(Batch::rowCount).containsExactly(1, BLOCK_ROWS, ROWS - 5 * BLOCK_ROWS);
        for (final Batch whole : List.of(batches.get(1), batches.get(2))) {
            assertThat(whole.storedBlock()).isNotNull();
            assertThat(whole.storedBlock().rowCount()).isEqualTo(whole.rowCount());
            for (int c = 0; c < COLUMNS.size(); c++) {
                assertThat(whole.zoneMap(c)).isNotNull();
            }
            assertThat(whole.sortedBy()).isZero();
        }
        assertThat(batches.get(0).storedBlock()).isNull();
    }

    @Test
    void wholeBlocksOneAfterAnotherDoNotShareArrays() {
        final List<Batch> batches = scan(List.of("k", "v"), Expr.ge(col("k"), Expr.lit(0)));
        assertThat(batches).hasSize(6);
        assertThat(rows(batches)).isEqualTo(expected(List.of("k", "v"), r -> true));
        final long[] first = ((LongVector) batches.get(0).column(0)).values();
        assertThat(Arrays.asList(batches.get(1).column(0), batches.get(2).column(0)))
                .allSatisfy(v -> assertThat(((LongVector) v).values()).isNotSameAs(first));
    }

    @Test
    void columnsTheOperatorAboveDropsHoldPlaceholdersAndTheOthersTheirRows() {
        final Expr wholeBlocks = Expr.and(Expr.ge(col("k"), Expr.lit(2 * BLOCK_ROWS - 1)),
                Expr.or(Expr.lt(col("k"), Expr.lit(3 * BLOCK_ROWS)), Expr.ge(col("k"), Expr.lit(5 * BLOCK_ROWS))));
        final List<Expr> filters = List.of(Expr.eq(col("g"), Expr.str("RAIL")), Expr.and(wholeBlocks,
                Expr.ne(col("g"), Expr.str(""))), Expr.and(Expr.ge(col("v"), Expr.lit(900)),
                Expr.ne(col("g"), Expr.str("AIR"))));
        final List<Predicate<Object[]>> keeps = List.of(r -> r[3].equals("RAIL"), r -> {
            final long k = (Long) r[0];
            return k >= 2 * BLOCK_ROWS - 1 && (k < 3 * BLOCK_ROWS || k >= 5 * BLOCK_ROWS);
        }, r -> r[1] != null && (Long) r[1] >= 900 && !r[3].equals("AIR"));
        final List<List<String>> columns = List.of(COLUMNS, COLUMNS, List.of("v", "g"));
        for (int f = 0; f < filters.size(); f++) {
            final List<String> cs = columns.get(f);
            final int g = cs.indexOf("g");
            final List<Batch> batches = scan(cs, filters.get(f), java.util.Set.of("g"));
            final List<List<Object>> kept = new ArrayList<>();
            for (final List<Object> row : rows(batches)) {
                final List<Object> without = new ArrayList<>(row);
                assertThat(without.remove(g)).as("a dropped column's placeholder").isEqualTo("");
                kept.add(without);
            }
            final List<String> others = new ArrayList<>(cs);
            others.remove("g");
            assertThat(kept).as(filters.get(f).toString()).isEqualTo(expected(others, keeps.get(f)));
            assertThat(batches).allSatisfy(b -> assertThat(b.storedBlock()).isNull());
        }
    }

    @Test
    void aFilterTestingEveryColumnReadsTheBlockWhole() {
        final List<String> columns = List.of("v", "g");
        final List<Batch> batches = scan(columns, Expr.and(Expr.ge(col("v"), Expr.lit(900)),
                Expr.ne(col("g"), Expr.str("AIR"))));
        assertThat(rows(batches)).isEqualTo(expected(columns,
                r -> r[1] != null && (Long) r[1] >= 900 && !r[3].equals("AIR")));
    }

    @Test
    void aSecondRuntimeFilterReadsItsNullableKeyForTheRowsTheFirstKeptOnly() {
        // 60 of the keys k pass the first filter (6% of their block), then v, NULL in every seventh row, meets the
        // values below 500 (0 among them, what a NULL's place holds): the v filter goes second and reads v only for
        // the rows k kept, NULLs among them, which must stay NULL and meet nothing.
        final Plan fewKeys = Plan.scan("t", "k").filter(Expr.lt(col("k"), Expr.lit(60)))
                .project(new NamedExpr("k2", col("k")));
        final Plan someValues = Plan.scan("t", "k", "v").filter(Expr.lt(col("v"), Expr.lit(500)))
                .aggregate(Plan.groupBy("v")).project(new NamedExpr("v3", col("v")));
        final Plan plan = Plan.scan("t", "k", "v", "d")
                .join(JoinType.INNER, fewKeys, List.of("k"), List.of("k2"))
                .join(JoinType.INNER, someValues, List.of("v"), List.of("v3"))
                .aggregate(Plan.noKeys(), Plan.count("n"), Plan.sum(col("v"), "sv"), Plan.min(col("d"), "first"));
        final StrategyConfig config = StrategyConfig.defaults().withStrategy(Strategy.BROADCAST);
        final QueryRunner.Execution on;
        final QueryRunner.Execution off;
        try (QueryRunner runner = new QueryRunner(catalog, 2, config)) {
            on = runner.execute(plan);
        }
        try (QueryRunner runner = new QueryRunner(catalog, 2, config.withRuntimeFilters(RuntimeFilterMode.OFF))) {
            off = runner.execute(plan);
        }
        assertThat(on.result().rows()).isEqualTo(off.result().rows());
        final RuntimeFilterStats byKey = on.runtimeFilterStats().stream()
                .filter(f -> f.probe().equals(List.of("k"))).findFirst()
                .orElseThrow(() -> new AssertionError("no filter on k: " + on.runtimeFilterStats()));
        final RuntimeFilterStats byValue = on.runtimeFilterStats().stream()
                .filter(f -> f.probe().equals(List.of("v"))).findFirst()
                .orElseThrow(() -> new AssertionError("no filter on v: " + on.runtimeFilterStats()));
        // The keys below 60 lie in the first block: the others are skipped by their zonemaps.
        assertThat(byKey.probeRowsIn()).as("%s", byKey).isEqualTo(BLOCK_ROWS);
        assertThat(byKey.probeRowsOut()).isEqualTo(60);
        assertThat(byValue.probeRowsIn()).as("%s after %s", byValue, byKey).isEqualTo(byKey.probeRowsOut());
    }
}
