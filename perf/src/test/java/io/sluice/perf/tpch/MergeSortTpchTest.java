package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.ExplainText;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ORDER BY on an embedded cluster of 3 CNs x 2 cores as a MERGE SORT (each core sorts its rows, the
 * coordinator merges the sorted runs) returns DuckDB's rows in DuckDB's order, over SF 0.01 TPC-H:
 * several keys, both directions, strings, ties broken by further keys, with and without a limit; the
 * plan shows {@code EXCHANGE IN MERGE SORT DISTR} and the coordinator merged instead of sorting. The
 * old gather-and-sort, switched on by {@link StrategyConfig#withMergeSort}, returns the same rows.
 */
class MergeSortTpchTest {
    private static final Pattern MERGED = Pattern.compile("merged (\\d+) rows of (\\d+) sorted runs, no full sort");

    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static Session session;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        session = new Session(oracle.store(), new Topology(3, 2));
    }

    @AfterAll
    static void close() throws Exception {
        if (session != null) {
            session.close();
        }
        if (oracle != null) {
            oracle.close();
        }
    }

    private static final Plan LINEITEM = Plan.scan("lineitem", "l_orderkey", "l_linenumber", "l_extendedprice",
            "l_shipmode");
    private static final String LINEITEM_SQL = "SELECT l_orderkey, l_linenumber, l_extendedprice, l_shipmode"
            + " FROM lineitem ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber";
    private static final Plan CUSTOMER = Plan.scan("customer", "c_mktsegment", "c_name", "c_acctbal");
    private static final String CUSTOMER_SQL = "SELECT c_mktsegment, c_name, c_acctbal FROM customer"
            + " ORDER BY c_mktsegment DESC, c_acctbal, c_name";
    private static final Plan REVENUE = Plan.scan("lineitem", "l_orderkey", "l_quantity")
            .aggregate(Plan.groupBy("l_orderkey"), Plan.sum(col("l_quantity"), "quantity"));
    private static final String REVENUE_SQL = "SELECT l_orderkey, sum(l_quantity) AS quantity FROM lineitem"
            + " GROUP BY l_orderkey ORDER BY quantity DESC, l_orderkey";
    private static final Plan ORDERS = Plan.scan("orders", "o_orderkey", "o_custkey", "o_orderdate", "o_totalprice")
            .join(JoinType.INNER, Plan.scan("customer", "c_custkey", "c_name"), List.of("o_custkey"),
                    List.of("c_custkey"))
            .select("c_name", "o_orderdate", "o_totalprice", "o_orderkey");
    private static final String ORDERS_SQL = "SELECT c_name, o_orderdate, o_totalprice, o_orderkey FROM orders"
            + " JOIN customer ON o_custkey = c_custkey ORDER BY o_orderdate, o_totalprice DESC, o_orderkey";

    static Stream<Arguments> queries() {
        final SortKey[] lineitem = {SortKey.desc("l_extendedprice"), SortKey.asc("l_orderkey"),
                SortKey.asc("l_linenumber")};
        final SortKey[] customer = {SortKey.desc("c_mktsegment"), SortKey.asc("c_acctbal"), SortKey.asc("c_name")};
        final SortKey[] revenue = {SortKey.desc("quantity"), SortKey.asc("l_orderkey")};
        final SortKey[] orders = {SortKey.asc("o_orderdate"), SortKey.desc("o_totalprice"), SortKey.asc("o_orderkey")};
        return Stream.of(
                Arguments.of("lineitem by price desc", LINEITEM.orderBy(lineitem), LINEITEM_SQL),
                Arguments.of("lineitem top 25", LINEITEM.orderBy(lineitem).limit(25), LINEITEM_SQL + " LIMIT 25"),
                Arguments.of("customer by segment desc, strings", CUSTOMER.orderBy(customer), CUSTOMER_SQL),
                Arguments.of("customer top 3", CUSTOMER.orderBy(customer).limit(3), CUSTOMER_SQL + " LIMIT 3"),
                Arguments.of("customer limit beyond the rows", CUSTOMER.orderBy(customer).limit(1_000_000),
                        CUSTOMER_SQL + " LIMIT 1000000"),
                Arguments.of("shuffled group by quantity", REVENUE.orderBy(revenue), REVENUE_SQL),
                Arguments.of("shuffled group top 10", REVENUE.orderBy(revenue).limit(10), REVENUE_SQL + " LIMIT 10"),
                Arguments.of("join by date", ORDERS.orderBy(orders), ORDERS_SQL),
                Arguments.of("join top 15", ORDERS.orderBy(orders).limit(15), ORDERS_SQL + " LIMIT 15"),
                Arguments.of("one CN's rows", Plan.scan("orders", "o_orderkey", "o_orderdate")
                                .filter(Expr.le(col("o_orderkey"), Expr.lit(40)))
                                .orderBy(SortKey.desc("o_orderdate"), SortKey.asc("o_orderkey")),
                        "SELECT o_orderkey, o_orderdate FROM orders WHERE o_orderkey <= 40"
                                + " ORDER BY o_orderdate DESC, o_orderkey"));
    }

    private static Session.Execution run(final String name, final Plan plan, final boolean merge) {
        return session.execute(name, plan, StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH)
                .withMergeSort(merge), 0, ExplainText.RENDERED);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void theCoordinatorMergesSortedRunsIntoDuckDbsOrder(final String name, final Plan plan, final String sql)
            throws Exception {
        final Session.Execution merged = run(name, plan, true);
        oracle.assertSameAsDuckDb(name, sql, merged.result());
        final String explain = merged.explain();
        assertThat(explain).as(explain).contains("EXCHANGE IN MERGE SORT DISTR", "EXCHANGE OUT DISTR")
                .doesNotContain("=> sort [");
        final Matcher m = MERGED.matcher(explain);
        assertThat(m.find()).as(explain).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("rows merged").isEqualTo(merged.result().rowCount());
        assertThat(Long.parseLong(m.group(2))).as("sorted runs, one per core with rows").isBetween(1L, 6L);
        assertThat(merged.stats().sorts()).as("stats of the coordinator's sort").isEqualTo(
                new QueryStats.SortStats(merged.result().rowCount(), Long.parseLong(m.group(2)), 0));
        final Session.Execution gathered = run(name, plan, false);
        oracle.assertSameAsDuckDb(name, sql, gathered.result());
        assertThat(gathered.explain()).contains("=> sort [").doesNotContain("MERGE SORT");
        assertThat(gathered.stats().sorts()).as("gather and sort").isEqualTo(new QueryStats.SortStats(0, 0, 1));
    }

    @Test
    void rowsOfOneCnComeFromItsCoresAlone() {
        final Session.Execution e = run("one CN", Plan.scan("orders", "o_orderkey")
                .filter(Expr.le(col("o_orderkey"), Expr.lit(40))).orderBy(SortKey.desc("o_orderkey")), true);
        final Matcher m = MERGED.matcher(e.explain());
        assertThat(m.find()).as(e.explain()).isTrue();
        assertThat(Long.parseLong(m.group(2))).as("runs: the CNs without rows send none").isLessThanOrEqualTo(2);
        assertThat(e.result().rowCount()).isPositive();
    }

    @Test
    void noRowsAndLimitZeroMergeNothing() {
        final SortKey[] keys = {SortKey.desc("l_extendedprice"), SortKey.asc("l_orderkey"), SortKey.asc("l_linenumber")};
        final Plan empty = LINEITEM.filter(Expr.lt(col("l_orderkey"), Expr.lit(0))).orderBy(keys);
        final Plan none = LINEITEM.orderBy(keys).limit(0);
        for (final Plan plan : List.of(empty, none)) {
            for (final boolean merge : List.of(true, false)) {
                final Session.Execution e = run("nothing", plan, merge);
                assertThat(e.result().rowCount()).as("%s merge %s", plan, merge).isZero();
                assertThat(e.result().rowType().names()).containsExactly("l_orderkey", "l_linenumber",
                        "l_extendedprice", "l_shipmode");
                if (merge) {
                    assertThat(e.explain()).contains("merged 0 rows of 0 sorted runs");
                }
            }
        }
    }

    @Test
    void oneCnWithOneCoreGathersAndSortsOnce() {
        session.topology(new Topology(1, 1));
        try {
            final Session.Execution e = run("1x1", LINEITEM.orderBy(SortKey.desc("l_extendedprice"),
                    SortKey.asc("l_orderkey"), SortKey.asc("l_linenumber")).limit(5), true);
            assertThat(e.explain()).contains("=> sort [").doesNotContain("MERGE SORT");
        } finally {
            session.topology(new Topology(3, 2));
        }
    }
}
