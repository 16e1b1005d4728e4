package io.sluice.perf.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.explain.ExplainOperator;
import io.sluice.dispatch.explain.ExplainPlan;
import io.sluice.dispatch.explain.Explainer;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpcds.TpcdsLoader;
import io.sluice.perf.tpcds.TpcdsTable;
import io.sluice.shuffle.Topology;
import io.sluice.sql.PlannedQuery;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.Table;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TPC-DS queries as a regression suite: TPC-DS at SF 0.01 is generated once into a Sluice store
 * and loaded from it into DuckDB, and each query {@code tpcds/queries.txt} lists without a reason
 * must give DuckDB's answer on embedded 1x2 and 3x2 clusters ({@link CorpusRunner}'s comparison).
 * A query listed with a reason is reported as skipped with that reason.
 *
 * <p>The query texts are Apache Spark SQL's ({@link TpcdsQueryTexts}: resources of its test jar, a
 * test-scope dependency Maven downloads), which the repository does not carry;
 * {@code -Dsluice.tpcds.queries=DIR} runs the texts of a folder instead.
 */
class TpcdsQueriesTest {
    private static final double SCALE_FACTOR = 0.01;
    private static final String LIST = "/tpcds/queries.txt";

    @TempDir
    static Path dir;

    private static StoreCatalog catalog;
    private static SqlPlanner planner;
    private static Session oneByTwo;
    private static Session threeByTwo;
    private static Connection duck;
    private static Map<String, String> texts;

    @BeforeAll
    static void generate() throws Exception {
        texts = TpcdsQueryTexts.load(TpcdsQueryTexts.overrideFolder());
        if (texts.isEmpty()) {
            return;
        }
        duck = DuckDbLoader.openInMemory(2);
        final Store store = Store.create(dir.resolve("store"));
        final List<String> names = new ArrayList<>();
        for (final TpcdsTable t : TpcdsTable.values()) {
            try (Table ignored = TpcdsLoader.load(store, t, SCALE_FACTOR, false, rows -> { })) {
                names.add(t.tableName());
            }
        }
        catalog = new StoreCatalog(store);
        planner = new SqlPlanner(catalog, store.tableNames());
        oneByTwo = new Session(store, Topology.parse("1x2"));
        threeByTwo = new Session(store, Topology.parse("3x2"));
        DuckDbLoader.load(store, names, duck);
    }

    @AfterAll
    static void close() {
        CloseHelper.closeAll(oneByTwo, threeByTwo, catalog, duck);
    }

    /** One line of the list: a query's name ({@code 01}, {@code 14a}), and why it is not run, or null when it must pass. */
    record Listed(String query, String reason) {
    }

    static List<Listed> listed() throws IOException {
        final List<Listed> out = new ArrayList<>();
        try (InputStream in = TpcdsQueriesTest.class.getResourceAsStream(LIST)) {
            assertThat(in).as(LIST).isNotNull();
            for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                final String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                final int space = l.indexOf(' ');
                out.add(space < 0 ? new Listed(l, null)
                        : new Listed(l.substring(0, space), l.substring(space + 1).strip()));
            }
        }
        return out;
    }

    @Test
    void theListNamesEachQueryOfTheTextsOnceInOrder() throws IOException {
        final List<String> names = listed().stream().map(Listed::query).toList();
        assertThat(names).containsExactlyElementsOf(TpcdsQueryTexts.load(null).keySet()).hasSize(103);
    }

    /**
     * Q11 reads its WITH query (store_sales and web_sales grouped by customer and year) four times; in one process
     * each half is grouped once and read by all four, although a runtime filter from web_sales thins the date_dim
     * scan it joins inside the WITH query (that filter depends on nothing outside it). The answer is DuckDB's.
     */
    @Test
    void q11GroupsEachHalfOfItsWithQueryOnceInOneProcess() throws Exception {
        Assumptions.assumeTrue(texts.containsKey("11"), "no text for TPC-DS query 11");
        final String sql = texts.get("11");
        final PlannedQuery planned = planner.plan(sql);
        final ExplainPlan plan = Explainer.plan("q11", planned.plan(), StrategyConfig.defaults(), new Topology(1, 2),
                catalog, false);
        assertThat(scans(plan, "store_sales")).isEqualTo(1);
        assertThat(scans(plan, "web_sales")).isEqualTo(1);
        new CorpusRunner(catalog, planner, List.of(), true, duck).check(new CorpusRunner.Case("q11.sql", 1, sql, null));
    }

    /**
     * Q78 keeps store sales of 2000 and left-joins the web and catalog channels on the year: the year reaches
     * every channel's date_dim scan (a row of another year can match no store row), so each scan prunes by it
     * instead of grouping all years of web and catalog sales. The answer is DuckDB's.
     */
    @Test
    void q78FiltersEveryChannelsDatesByTheYearItsStoreSalesKeep() throws Exception {
        Assumptions.assumeTrue(texts.containsKey("78"), "no text for TPC-DS query 78");
        final String sql = texts.get("78");
        final List<PlanNode.Scan> dates = new ArrayList<>();
        collectScans(planner.plan(sql).plan().node(), "date_dim", dates);
        assertThat(dates).hasSize(3).allSatisfy(s -> assertThat(s.pruning()).as("pruning of %s", s).isNotEmpty());
        new CorpusRunner(catalog, planner, List.of(), true, duck).check(new CorpusRunner.Case("q78.sql", 1, sql, null));
    }

    /**
     * Q4, Q11 and Q74 group each channel's sales by seven customer columns (six strings) and the year: the sales
     * are grouped by customer key and year below the join with customer, so only the groups meet the customer
     * table and its strings, and each customer scan's join has an aggregation as its other input. The answers
     * are DuckDB's.
     */
    @Test
    void q04q11q74GroupSalesByCustomerKeyBelowTheCustomerJoin() throws Exception {
        for (final String q : List.of("04", "11", "74")) {
            Assumptions.assumeTrue(texts.containsKey(q), "no text for TPC-DS query " + q);
            final String sql = texts.get(q);
            final List<PlanNode.Join> joins = new ArrayList<>();
            collectJoinsWithScan(planner.plan(sql).plan().node(), "customer", joins);
            assertThat(joins).as("q%s's joins with customer", q).isNotEmpty().allSatisfy(j -> assertThat(
                    aggregation(j.probe()) || aggregation(j.build())).as("an input of %s is an aggregation", j).isTrue());
            new CorpusRunner(catalog, planner, List.of(), true, duck).check(new CorpusRunner.Case("q" + q + ".sql", 1,
                    sql, null));
        }
    }

    /**
     * Q23a's {@code frequent_ss_items} groups store sales by item description, item key and date: grouped by item key
     * and date first, the sales make about as many groups as rows, so the join with item is left as written.
     */
    @Test
    void q23aGroupsItsSalesAboveTheItemJoin() throws Exception {
        Assumptions.assumeTrue(texts.containsKey("23a"), "no text for TPC-DS query 23a");
        final List<PlanNode.Join> joins = new ArrayList<>();
        collectJoinsWithScan(planner.plan(texts.get("23a")).plan().node(), "item", joins);
        assertThat(joins).as("q23a's joins with item").isNotEmpty().noneSatisfy(j -> assertThat(
                aggregation(j.probe()) || aggregation(j.build())).isTrue());
    }

    /** Whether a node is an aggregation, through projections. */
    private static boolean aggregation(final PlanNode node) {
        return node instanceof PlanNode.Aggregation || node instanceof PlanNode.Project p && aggregation(p.input());
    }

    /** The joins anywhere in a plan one of whose inputs is a scan of a table (through projections). */
    private static void collectJoinsWithScan(final Object node, final String table, final List<PlanNode.Join> out)
            throws ReflectiveOperationException {
        if (node instanceof PlanNode.Join j && (scanOf(j.probe(), table) || scanOf(j.build(), table))) {
            out.add(j);
        }
        if (node instanceof List<?> list) {
            for (final Object o : list) {
                collectJoinsWithScan(o, table, out);
            }
            return;
        }
        if (node instanceof PlanNode && node.getClass().isRecord()) {
            for (final RecordComponent c : node.getClass().getRecordComponents()) {
                collectJoinsWithScan(c.getAccessor().invoke(node), table, out);
            }
        }
    }

    private static boolean scanOf(final PlanNode node, final String table) {
        return node instanceof PlanNode.Scan s && s.table().equals(table)
                || node instanceof PlanNode.Project p && scanOf(p.input(), table);
    }

    /** The scans of a table anywhere in a plan, through every node's inputs (its record components). */
    private static void collectScans(final Object node, final String table, final List<PlanNode.Scan> out)
            throws ReflectiveOperationException {
        if (node instanceof PlanNode.Scan s) {
            if (s.table().equals(table)) {
                out.add(s);
            }
            return;
        }
        if (node instanceof List<?> list) {
            for (final Object o : list) {
                collectScans(o, table, out);
            }
            return;
        }
        if (node instanceof PlanNode && node.getClass().isRecord()) {
            for (final RecordComponent c : node.getClass().getRecordComponents()) {
                collectScans(c.getAccessor().invoke(node), table, out);
            }
        }
    }

    private static long scans(final ExplainPlan plan, final String table) {
        long n = 0;
        for (final ExplainOperator o : plan.operators()) {
            if (o.operator().equals("TABLE SCAN") && table.equals(o.name())) {
                n++;
            }
        }
        return n;
    }

    @TestFactory
    Stream<DynamicTest> eachListedQueryGivesDuckDbsAnswerOn1x2And3x2() throws IOException {
        final CorpusRunner runner = texts.isEmpty() ? null
                : new CorpusRunner(catalog, planner, List.of(oneByTwo, threeByTwo), false, duck);
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Listed q : listed()) {
            final String name = "q" + q.query();
            tests.add(DynamicTest.dynamicTest(name, () -> {
                Assumptions.assumeTrue(q.reason() == null, q.reason());
                final String sql = texts.get(q.query());
                Assumptions.assumeTrue(sql != null, "no text for TPC-DS query " + q.query() + " in "
                        + TpcdsQueryTexts.overrideFolder() + " (-D" + TpcdsQueryTexts.PROPERTY + ")");
                runner.check(new CorpusRunner.Case(name + ".sql", 1, sql, null));
            }));
        }
        return tests.stream();
    }
}
