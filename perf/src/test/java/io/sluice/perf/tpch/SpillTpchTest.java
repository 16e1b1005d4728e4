package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.exec.MemoryPool;
import io.sluice.engine.exec.MemoryProperty;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.engine.spill.SpillSpace;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TPC-H at SF 0.01 under memory budgets small enough that sorts, group-bys and hash join builds spill (a grace hash
 * join: inner, left, semi and anti joins among the queries): the answers are DuckDB's, the operator named did write
 * spill files, and the spill folder is empty again after the query, whether it succeeded or failed.
 */
class SpillTpchTest {
    @TempDir
    static Path dir;
    @TempDir
    static Path spillRoot;

    private static TpchOracle oracle;
    private static SqlPlanner planner;
    private static QueryRunner runner;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        planner = new SqlPlanner(oracle.catalog(), oracle.store().tableNames());
        runner = new QueryRunner(oracle.catalog(), 2, StrategyConfig.defaults());
    }

    @AfterAll
    static void close() throws Exception {
        if (runner != null) {
            runner.close();
        }
        if (oracle != null) {
            oracle.close();
        }
    }

    @BeforeEach
    void spillUnderTheTestsFolder() {
        System.setProperty(MemoryProperty.SPILL_DIR.key(), spillRoot.toString());
    }

    @AfterEach
    void clearProperties() {
        System.clearProperty(MemoryProperty.QUERY_MAX.key());
        System.clearProperty(MemoryProperty.SPILL_DIR.key());
        System.clearProperty(MemoryProperty.SPILL.key());
    }

    private static SpillSpace space() {
        return SpillSpace.under(spillRoot);
    }

    /** Runs the query under the budget, checks it against DuckDB, and returns what each operator spilled. */
    private static Map<String, Long> spilledRunning(final String name, final String sql, final String budget)
            throws Exception {
        final Map<String, Long> before = space().bytesByOperator();
        final long pool = MemoryPool.shared().reserved();
        System.setProperty(MemoryProperty.QUERY_MAX.key(), budget);
        oracle.assertSameAsDuckDb(name, sql, runner.run(planner.plan(sql).plan()));
        assertThat(MemoryPool.shared().reserved()).isEqualTo(pool);
        assertSpillFolderEmpty();
        final Map<String, Long> after = new java.util.TreeMap<>(space().bytesByOperator());
        after.replaceAll((k, v) -> v - before.getOrDefault(k, 0L));
        after.values().removeIf(v -> v == 0);
        return after;
    }

    private static void assertSpillFolderEmpty() throws Exception {
        final Path folder = space().folder();
        if (Files.exists(folder)) {
            try (Stream<Path> left = Files.list(folder)) {
                assertThat(left).as("spill files left in %s", folder).isEmpty();
            }
        }
    }

    @Test
    void aSortOfAllLineitemsOverItsBudgetSpillsAndEqualsDuckDb() throws Exception {
        final String sql = "SELECT l_orderkey, l_linenumber, l_extendedprice, l_shipmode FROM lineitem"
                + " ORDER BY l_shipmode DESC, l_extendedprice, l_orderkey, l_linenumber";
        assertThat(spilledRunning("sort", sql, "256k")).containsKey(
                "sort [l_shipmode DESC, l_extendedprice, l_orderkey, l_linenumber]");
    }

    @Test
    void aTopNOverItsBudgetSpillsAndEqualsDuckDb() throws Exception {
        final String sql = "SELECT l_orderkey, l_linenumber, l_extendedprice FROM lineitem"
                + " ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 50";
        assertThat(spilledRunning("top-n", sql, "128k").keySet()).anyMatch(k -> k.startsWith("sort ["));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"18, 200k", "13, 30k"})
    void groupBysOverTheirBudgetSpillAndEqualDuckDb(final int query, final String budget) throws Exception {
        final Map<String, Long> spilled = spilledRunning("q" + query, TpchSql.text(query), budget);
        assertThat(spilled.keySet()).as("q%s spilled %s", query, spilled).anyMatch(k -> k.contains("group by ["));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"3, 40k", "4, 12k", "5, 40k", "9, 100k", "10, 250k", "13, 20k",
        "21, 40k", "21, 12k"})
    void joinsOverTheirBudgetSpillAndEqualDuckDb(final int query, final String budget) throws Exception {
        final Map<String, Long> spilled = spilledRunning("q" + query, TpchSql.text(query), budget);
        assertThat(spilled.keySet()).as("q%s spilled %s", query, spilled)
                .anyMatch(k -> k.startsWith("hash join build ["));
    }

    /**
     * A join whose build spilled feeds a group-by: while the join loads its partitions back, the group tables the
     * workers filled hold the budget. Refused, the join asks them to spill (revocable memory) instead of splitting its
     * partitions down to the one-key-too-heavy error; the group-by's own merges ask the rows a top-N keeps.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"10, 8k", "10, 20k", "10, 32k", "13, 8k", "13, 12k", "9, 8k"})
    void aJoinFeedingAGroupByAtATinyBudgetTakesTheGroupTablesMemoryAndEqualsDuckDb(final int query,
            final String budget) throws Exception {
        final Map<String, Long> spilled = spilledRunning("q" + query, TpchSql.text(query), budget);
        assertThat(spilled.keySet()).as("q%s spilled %s", query, spilled).anyMatch(k -> k.contains("group by ["));
    }

    /**
     * COUNT(DISTINCT) keeps every distinct value and does not spill: past the budget it fails with the named error
     * (here its one group of 32 bytes fits; lineitem's 15 000 order keys do not), never with an OutOfMemoryError.
     */
    @Test
    void aCountDistinctPastItsBudgetFailsNamingItsGroupByTheBudgetAndTheSetting() throws Exception {
        final long pool = MemoryPool.shared().reserved();
        System.setProperty(MemoryProperty.QUERY_MAX.key(), "64k");
        final String sql = "SELECT count(DISTINCT l_orderkey) FROM lineitem";
        assertThatThrownBy(() -> runner.run(planner.plan(sql).plan()))
                .isInstanceOf(io.sluice.engine.exec.MemoryLimitException.class)
                .hasMessageContaining("memory budget of 64.0 KiB")
                .hasMessageContaining("group by [] holds")
                .hasMessageContaining("-Dsluice.memory.query.max=SIZE (now 64k")
                .hasMessageContaining("this operator does not spill to disk");
        assertThat(MemoryPool.shared().reserved()).isEqualTo(pool);
        System.setProperty(MemoryProperty.QUERY_MAX.key(), "1m");
        oracle.assertSameAsDuckDb("count distinct", sql, runner.run(planner.plan(sql).plan()));
    }

    @Test
    void aQueryThatFailsAfterItsJoinSpilledLeavesNoSpillFiles() throws Exception {
        final Map<String, Long> before = space().bytesByOperator();
        System.setProperty(MemoryProperty.QUERY_MAX.key(), "40k");
        final String sql = "SELECT o_orderkey FROM orders WHERE o_orderkey = (SELECT l_orderkey FROM lineitem JOIN"
                + " orders ON l_orderkey = o_orderkey WHERE l_quantity > 10)";
        assertThatThrownBy(() -> runner.run(planner.plan(sql).plan())).hasMessageContaining("more than one row");
        assertThat(space().bytesByOperator()).as("spilled before it failed")
                .hasEntrySatisfying("hash join build [o_orderkey]",
                        bytes -> assertThat(bytes).isGreaterThan(before.getOrDefault("hash join build [o_orderkey]", 0L)));
        assertSpillFolderEmpty();
    }

    @Test
    void withSpillingOffAJoinOverItsBudgetFailsNamingItsBuildAndTheSwitch() throws Exception {
        System.setProperty(MemoryProperty.SPILL.key(), "off");
        System.setProperty(MemoryProperty.QUERY_MAX.key(), "40k");
        final String sql = "SELECT count(*) FROM lineitem JOIN orders ON l_orderkey = o_orderkey";
        assertThatThrownBy(() -> runner.run(planner.plan(sql).plan()))
                .hasMessageContaining("hash join build [o_orderkey] holds")
                .hasMessageContaining("-Dsluice.spill=on");
    }

    @Test
    void aQueryThatFailsAfterItSpilledLeavesNoSpillFiles() throws Exception {
        final long files = space().files();
        System.setProperty(MemoryProperty.QUERY_MAX.key(), "128k");
        final String sql = "SELECT o_orderkey FROM orders WHERE o_orderkey = (SELECT l_orderkey FROM lineitem"
                + " ORDER BY l_extendedprice LIMIT 2)";
        assertThatThrownBy(() -> runner.run(planner.plan(sql).plan())).hasMessageContaining("more than one row");
        assertThat(space().files()).isGreaterThan(files);
        assertSpillFolderEmpty();
    }

    @Test
    void withSpillingOffTheQueryFailsNamingTheSortAndTheSwitch() throws Exception {
        System.setProperty(MemoryProperty.SPILL.key(), "off");
        System.setProperty(MemoryProperty.QUERY_MAX.key(), "128k");
        final String sql = "SELECT l_orderkey, l_linenumber FROM lineitem ORDER BY l_orderkey DESC, l_linenumber";
        assertThatThrownBy(() -> runner.run(planner.plan(sql).plan()))
                .hasMessageContaining("sort [l_orderkey DESC, l_linenumber] holds")
                .hasMessageContaining("-Dsluice.spill=on");
    }
}
