package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.RuntimeFilterRouter;
import io.sluice.engine.exec.RuntimeFilterState;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.filter.FilterKind;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.QueryRunner.Execution;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runtime filters in one process over TPC-H SF 0.01: every query under every strategy gives DuckDB's
 * answer with filters off, local and global alike; a selective join on the probe table's sort key
 * skips blocks; a filter that rejects nothing turns itself off; a filter that comes late or never
 * changes no answer and hangs nothing.
 */
class RuntimeFilterTpchTest {
    @TempDir
    static Path dir;

    private static TpchOracle oracle;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
    }

    @AfterAll
    static void close() throws Exception {
        if (oracle != null) {
            oracle.close();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.sluice.perf.tpch.TpchOracle#queriesAndStrategies")
    void everyModeGivesDuckDbsAnswer(final String name, final Strategy strategy) throws Exception {
        final Query query = TpchOracle.query(name);
        List<List<Object>> off = null;
        for (final RuntimeFilterMode mode : RuntimeFilterMode.values()) {
            final Execution e = run(query.plan(), StrategyConfig.defaults().withStrategy(strategy).withRuntimeFilters(mode), 3,
                    RuntimeFilterRouter.LOCAL);
            oracle.assertSameAsDuckDb(query, e.result());
            if (mode == RuntimeFilterMode.OFF) {
                assertThat(e.runtimeFilters()).as("no filters when off").isEmpty();
                off = e.result().rows();
            } else {
                assertThat(e.result().rows()).as("%s under %s", name, mode).isEqualTo(off);
                for (final RuntimeFilterStats s : e.runtimeFilterStats()) {
                    assertThat(s.probeRowsOut()).as("%s", s).isLessThanOrEqualTo(s.probeRowsIn());
                    assertThat(s.state()).as("%s", s).isNotIn(RuntimeFilterState.PENDING, RuntimeFilterState.NOT_ARRIVED);
                }
            }
        }
    }

    /** lineitem is stored by l_orderkey; the build keeps the orders of the first few keys. */
    private static Plan selectiveOnSortKey() {
        return Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey").filter(Expr.lt(col("o_orderkey"), Expr.lit(200))),
                        List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("n"), Plan.sum(col("l_quantity"), "q"));
    }

    @Test
    void aSelectiveJoinOnTheProbeSortKeySkipsBlocks() {
        for (final Strategy strategy : List.of(Strategy.BROADCAST, Strategy.SHUFFLE_HASH, Strategy.COLOCATE)) {
            final Execution off = run(selectiveOnSortKey(),
                    StrategyConfig.defaults().withStrategy(strategy).withRuntimeFilters(RuntimeFilterMode.OFF), 2,
                    RuntimeFilterRouter.LOCAL);
            final Execution on = run(selectiveOnSortKey(), StrategyConfig.defaults().withStrategy(strategy), 2,
                    RuntimeFilterRouter.LOCAL);
            assertThat(on.result().rows()).as("under %s", strategy).isEqualTo(off.result().rows());
            assertThat(on.runtimeFilterStats()).as("under %s", strategy).hasSize(1);
            final RuntimeFilterStats s = on.runtimeFilterStats().get(0);
            assertThat(s.probe()).containsExactly("l_orderkey");
            assertThat(s.kinds()).contains(FilterKind.MIN_MAX);
            assertThat(s.blocksSkipped()).as("%s under %s", s, strategy).isPositive();
        }
    }

    @Test
    void aBuildOfAWholeTableMakesNoFilter() {
        final Plan everyOrder = Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey"), List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("n"));
        for (final Strategy strategy : Strategy.values()) {
            final Execution e = run(everyOrder, StrategyConfig.defaults().withStrategy(strategy), 2,
                    RuntimeFilterRouter.LOCAL);
            assertThat(e.runtimeFilters()).as("under %s", strategy).isEmpty();
        }
    }

    @Test
    void aBuildLargerThanItsProbeScanMakesNoFilterAndASmallerOneDoes() {
        // An EXISTS over lineitem for the orders of one month: the build could hold more keys than the scan has rows.
        final Plan exists = Plan.scan("orders", "o_orderkey", "o_orderdate")
                .filter(Expr.lt(col("o_orderdate"), Expr.date("1992-02-01")))
                .join(JoinType.SEMI, Plan.scan("lineitem", "l_orderkey", "l_commitdate", "l_receiptdate")
                        .filter(Expr.lt(col("l_commitdate"), col("l_receiptdate"))), List.of("o_orderkey"),
                        List.of("l_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("n"));
        // The same join the other way round: those orders as the build of a lineitem scan.
        final Plan inner = Plan.scan("lineitem", "l_orderkey", "l_commitdate", "l_receiptdate")
                .filter(Expr.lt(col("l_commitdate"), col("l_receiptdate")))
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey", "o_orderdate")
                        .filter(Expr.lt(col("o_orderdate"), Expr.date("1992-02-01"))), List.of("l_orderkey"),
                        List.of("o_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("n"));
        for (final Strategy strategy : Strategy.values()) {
            final StrategyConfig config = StrategyConfig.defaults().withStrategy(strategy);
            assertThat(run(exists, config, 2, RuntimeFilterRouter.LOCAL).runtimeFilters()).as("under %s", strategy)
                    .isEmpty();
            assertThat(run(inner, config, 2, RuntimeFilterRouter.LOCAL).runtimeFilters()).as("under %s", strategy)
                    .singleElement().satisfies(f -> assertThat(f.probe()).containsExactly("l_orderkey"));
        }
    }

    @Test
    void aBuildUnderAHavingFiltersItsProbeScanThoughItsUpperEstimateExceedsIt() {
        // Q18's subquery: the orders whose lines sum to more than 300, as the build of an orders scan. Its upper
        // estimate (every group of lineitem) exceeds the scan's rows; the HAVING keeps a handful.
        final Plan large = Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .aggregate(Plan.groupBy("l_orderkey"), Plan.sum(col("l_quantity"), "quantity"))
                .filter(Expr.gt(col("quantity"), Expr.lit(300)))
                .select("l_orderkey");
        final Plan orders = Plan.scan("orders", "o_orderkey", "o_totalprice")
                .join(JoinType.INNER, large, List.of("o_orderkey"), List.of("l_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("n"), Plan.sum(col("o_totalprice"), "total"));
        for (final Strategy strategy : Strategy.values()) {
            final StrategyConfig config = StrategyConfig.defaults().withStrategy(strategy);
            final Execution filtered = run(orders, config, 2, RuntimeFilterRouter.LOCAL);
            assertThat(filtered.runtimeFilters()).as("under %s", strategy)
                    .singleElement().satisfies(f -> assertThat(f.probe()).containsExactly("o_orderkey"));
            final Execution unfiltered = run(orders, config.withRuntimeFilters(RuntimeFilterMode.OFF), 2,
                    RuntimeFilterRouter.LOCAL);
            assertThat(filtered.result().rows()).isEqualTo(unfiltered.result().rows());
        }
    }

    @Test
    void aScanTestsItsRuntimeFilterBeforeItsRowFilterAndKeepsItsRows() {
        final BlockTable lineitem = oracle.catalog().table("lineitem");
        long rows = 0;
        for (int b = 0; b < lineitem.blockCount(); b++) {
            rows += lineitem.blockRowCount(b);
        }
        final long lineitemRows = rows;
        // Orders all over the key range, a quarter (the scan gathers the row filter's columns for the rows the
        // runtime filter keeps) or most (it reads them whole); the lineitem scan filters on its dates as well.
        for (final String price : List.of("250000", "20000")) {
            final Plan plan = Plan.scan("lineitem", "l_orderkey", "l_quantity", "l_commitdate", "l_receiptdate",
                            "l_shipmode")
                    .filter(Expr.lt(col("l_commitdate"), col("l_receiptdate")))
                    .join(JoinType.INNER, Plan.scan("orders", "o_orderkey", "o_totalprice")
                                    .filter(Expr.gt(col("o_totalprice"), Expr.dec(price + ".00"))),
                            List.of("l_orderkey"), List.of("o_orderkey"))
                    .aggregate(Plan.groupBy("l_shipmode"), Plan.count("n"), Plan.sum(col("l_quantity"), "q"));
            for (final Strategy strategy : List.of(Strategy.BROADCAST, Strategy.COLOCATE, Strategy.SHUFFLE_HASH)) {
                final StrategyConfig config = StrategyConfig.defaults().withStrategy(strategy).withThresholds(1_000,
                        1_000);
                final Execution on = run(plan, config, 2, RuntimeFilterRouter.LOCAL);
                final Execution off = run(plan, config.withRuntimeFilters(RuntimeFilterMode.OFF), 2,
                        RuntimeFilterRouter.LOCAL);
                assertThat(on.result().rows()).as("%s under %s", price, strategy)
                        .containsExactlyInAnyOrderElementsOf(off.result().rows());
                if (price.equals("250000")) {
                    // A quarter of the orders, in every block: no block is skipped, and the runtime filter meets every
                    // row of lineitem (a colocated scan reads a block on a bucket boundary twice), those the row filter
                    // would drop too.
                    assertThat(on.runtimeFilterStats()).as("under %s", strategy).singleElement()
                            .satisfies(st -> assertThat(st.probeRowsIn()).as("rows the filter met in %s", st)
                                    .isGreaterThanOrEqualTo(lineitemRows));
                }
            }
        }
    }

    @Test
    void twoFiltersOnOneScanTestTheMoreSelectiveFirst() {
        // Every supplier passes (a row filter the planner cannot see through), 20 of the 2,000 parts do; the joins in
        // either order, so that the scan lists either filter first.
        final Plan suppliers = Plan.scan("supplier", "s_suppkey").filter(Expr.ge(col("s_suppkey"), Expr.lit(0)));
        final Plan parts = Plan.scan("part", "p_partkey").filter(Expr.lt(col("p_partkey"), Expr.lit(21)));
        final Plan lineitem = Plan.scan("lineitem", "l_orderkey", "l_partkey", "l_suppkey", "l_quantity");
        final List<Plan> plans = List.of(
                lineitem.join(JoinType.INNER, suppliers, List.of("l_suppkey"), List.of("s_suppkey"))
                        .join(JoinType.INNER, parts, List.of("l_partkey"), List.of("p_partkey")),
                lineitem.join(JoinType.INNER, parts, List.of("l_partkey"), List.of("p_partkey"))
                        .join(JoinType.INNER, suppliers, List.of("l_suppkey"), List.of("s_suppkey")));
        final BlockTable table = oracle.catalog().table("lineitem");
        long lineitemRows = 0;
        for (int b = 0; b < table.blockCount(); b++) {
            lineitemRows += table.blockRowCount(b);
        }
        for (final Plan joins : plans) {
            final Plan plan = joins.aggregate(Plan.noKeys(), Plan.count("n"), Plan.sum(col("l_quantity"), "q"));
            for (final int cores : new int[] {1, 2}) {
                final StrategyConfig config = StrategyConfig.defaults().withStrategy(Strategy.BROADCAST);
                final Execution on = run(plan, config, cores, RuntimeFilterRouter.LOCAL);
                final Execution off = run(plan, config.withRuntimeFilters(RuntimeFilterMode.OFF), cores,
                        RuntimeFilterRouter.LOCAL);
                assertThat(on.result().rows()).as("on %d cores", cores).isEqualTo(off.result().rows());
                final RuntimeFilterStats byPart = filterOn(on, "l_partkey");
                final RuntimeFilterStats bySupplier = filterOn(on, "l_suppkey");
                assertThat(byPart.probeRowsIn()).as("%s", byPart).isEqualTo(lineitemRows);
                assertThat(byPart.probeRowsOut()).as("%s", byPart).isPositive().isLessThan(lineitemRows / 50);
                assertThat(bySupplier.probeRowsIn()).as("%s after %s", bySupplier, byPart)
                        .isEqualTo(byPart.probeRowsOut());
            }
        }
    }

    private static RuntimeFilterStats filterOn(final Execution e, final String probeColumn) {
        return e.runtimeFilterStats().stream().filter(s -> s.probe().equals(List.of(probeColumn))).findFirst()
                .orElseThrow(() -> new AssertionError("no runtime filter on " + probeColumn + ": "
                        + e.runtimeFilterStats()));
    }

    @Test
    void aFilterThatRejectsNothingTurnsItselfOff() {
        // A row filter every order passes: the planner cannot tell that the build keeps every key.
        final Plan everyOrder = Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey").filter(Expr.ge(col("o_orderkey"), Expr.lit(0))),
                        List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("n"));
        final Execution e = run(everyOrder, StrategyConfig.defaults().withStrategy(Strategy.BROADCAST), 1,
                RuntimeFilterRouter.LOCAL);
        assertThat(e.runtimeFilterStats()).hasSize(1);
        final RuntimeFilterStats s = e.runtimeFilterStats().get(0);
        assertThat(s.state()).as("%s", s).isEqualTo(RuntimeFilterState.DISABLED);
        assertThat(s.probeRowsIn()).as("rows tested before it turned off").isLessThan((Long) e.result().rows().get(0).get(0));
        final Execution selective = run(selectiveOnSortKey(), StrategyConfig.defaults().withStrategy(Strategy.BROADCAST),
                1, RuntimeFilterRouter.LOCAL);
        assertThat(selective.runtimeFilterStats().get(0).state()).isEqualTo(RuntimeFilterState.APPLIED);
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aLateFilterAndAFilterThatNeverComesChangeNoAnswer() throws Exception {
        final StrategyConfig noWait = StrategyConfig.defaults().withStrategy(Strategy.BROADCAST)
                .withRuntimeFilters(io.sluice.engine.filter.RuntimeFilterConfig.defaults().withWaitMillis(0));
        final List<Thread> deliveries = new ArrayList<>();
        // The build's filter goes out only once its probe scan has started without it.
        final RuntimeFilterRouter late = (handle, partials) -> {
            final Thread t = new Thread(() -> {
                final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
                while (handle.stats().state() != RuntimeFilterState.NOT_ARRIVED && System.nanoTime() < deadline) {
                    java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                }
                handle.deliver(partials);
            }, "late filter " + handle.id());
            deliveries.add(t);
            t.start();
        };
        final RuntimeFilterRouter never = (handle, partials) -> { };
        for (final String name : List.of("q5", "q9", "q3", "q18")) {
            final Query query = TpchOracle.query(name);
            final Execution lateRun = run(query.plan(), noWait, 2, late);
            for (final Thread t : deliveries) {
                t.join();
            }
            oracle.assertSameAsDuckDb(query, lateRun.result());
            final Execution neverRun = run(query.plan(), StrategyConfig.defaults().withStrategy(Strategy.BROADCAST)
                    .withRuntimeFilters(io.sluice.engine.filter.RuntimeFilterConfig.defaults().withWaitMillis(50)), 2,
                    never);
            oracle.assertSameAsDuckDb(query, neverRun.result());
            assertThat(neverRun.runtimeFilterStats()).as(name).isNotEmpty()
                    .allSatisfy(s -> assertThat(s.state()).isEqualTo(RuntimeFilterState.NOT_ARRIVED));
        }
    }

    @Test
    void aLateFilterFiltersExactlyTheBlocksReadFromItsArrivalOn() {
        final int arrivalBlock = 2;
        final BlockTable lineitem = oracle.catalog().table("lineitem");
        final AtomicReference<Runnable> held = new AtomicReference<>();
        // The build's filter is held back and delivered while the probe scan reads block 2, by the reading thread.
        final RuntimeFilterRouter late = (handle, partials) -> held.set(() -> handle.deliver(partials));
        final BlockTable delivering = new BlockTable() {
            @Override
            public String name() {
                return lineitem.name();
            }

            @Override
            public Schema schema() {
                return lineitem.schema();
            }

            @Override
            public int blockCount() {
                return lineitem.blockCount();
            }

            @Override
            public int blockRowCount(final int block) {
                return lineitem.blockRowCount(block);
            }

            @Override
            public ZoneMap zoneMap(final int block, final int column) {
                return lineitem.zoneMap(block, column);
            }

            @Override
            public Block readBlock(final int block, final int... projection) {
                if (block == arrivalBlock) {
                    final Runnable deliver = held.getAndSet(null);
                    if (deliver != null) {
                        deliver.run();
                    }
                }
                return lineitem.readBlock(block, projection);
            }

            @Override
            public String sortKey() {
                return lineitem.sortKey();
            }
        };
        final Catalog catalog = name -> name.equals("lineitem") ? delivering : oracle.catalog().table(name);
        final StrategyConfig noWait = StrategyConfig.defaults().withStrategy(Strategy.BROADCAST)
                .withRuntimeFilters(io.sluice.engine.filter.RuntimeFilterConfig.defaults().withWaitMillis(0));
        final Execution e;
        try (QueryRunner runner = new QueryRunner(catalog, 1, noWait, late)) {
            e = runner.execute(selectiveOnSortKey());
        }
        final Execution off = run(selectiveOnSortKey(), noWait.withRuntimeFilters(RuntimeFilterMode.OFF), 1,
                RuntimeFilterRouter.LOCAL);
        assertThat(e.result().rows()).isEqualTo(off.result().rows());
        // What the filter must have done, from the stored keys: blocks before the arrival are read untested, the
        // block being read when it arrives is tested row by row, each later block is skipped unless some build
        // key lies inside its zonemap.
        final java.util.TreeSet<Long> buildKeys = new java.util.TreeSet<>();
        final BlockTable orders = oracle.catalog().table("orders");
        for (int b = 0; b < orders.blockCount(); b++) {
            final long[] keys = longs(orders.readBlock(b, orders.schema().indexOf("o_orderkey")).column(0));
            for (final long k : keys) {
                if (k < 200) {
                    buildKeys.add(k);
                }
            }
        }
        final int key = lineitem.schema().indexOf("l_orderkey");
        long skipped = 0;
        long tested = lineitem.blockRowCount(arrivalBlock);
        for (int b = arrivalBlock + 1; b < lineitem.blockCount(); b++) {
            final ZoneMap z = lineitem.zoneMap(b, key);
            final Long inside = buildKeys.ceiling(z.min());
            if (inside == null || inside > z.max()) {
                skipped++;
            } else {
                tested += lineitem.blockRowCount(b);
            }
        }
        assertThat(skipped).as("later blocks outside the filter").isPositive();
        final RuntimeFilterStats s = e.runtimeFilterStats().get(0);
        assertThat(s.state()).isEqualTo(RuntimeFilterState.LATE);
        assertThat(s.blocksSkipped()).as("%s", s).isEqualTo(skipped);
        assertThat(s.probeRowsIn()).as("%s", s).isEqualTo(tested);
    }

    private static long[] longs(final ColumnVector v) {
        if (v instanceof LongVector l) {
            return java.util.Arrays.copyOf(l.values(), v.rowCount());
        }
        final int[] ints = ((IntVector) v).values();
        final long[] out = new long[v.rowCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ints[i];
        }
        return out;
    }

    private static Execution run(final Plan plan, final StrategyConfig config, final int cores,
                                 final RuntimeFilterRouter router) {
        try (QueryRunner runner = new QueryRunner(oracle.catalog(), cores, config, router)) {
            return runner.execute(plan);
        }
    }
}
