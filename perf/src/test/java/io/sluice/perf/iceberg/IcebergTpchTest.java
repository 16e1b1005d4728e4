package io.sluice.perf.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.iceberg.IcebergCatalog;
import io.sluice.iceberg.IcebergTable;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TPC-H over Iceberg tables (SF 0.01; each table up to 4 Parquet files DuckDB wrote, row groups of 2048 rows,
 * registered in a JDBC catalog on SQLite): the 22 queries from their SQL text, on one CN of 2 cores and on an
 * embedded cluster of 3 CNs x 2 cores, return what DuckDB returns reading the same files; and a filter on the key
 * the files are in order of reads only the files whose manifest bounds can match, a filter on another column all.
 */
class IcebergTpchTest {
    private static final int FILES = 4;

    @TempDir
    static Path dir;

    private static IcebergTpch tpch;
    private static SqlPlanner planner;
    private static Session cluster;

    @BeforeAll
    static void generate() throws Exception {
        tpch = IcebergTpch.generate(dir, 0.01, 2048, FILES);
        planner = new SqlPlanner(tpch.catalog(), tpch.catalog().tableNames());
        cluster = new Session(tpch.catalog(), new Topology(3, 2), Session.Network.IPC);
    }

    @AfterAll
    static void close() throws Exception {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            if (tpch != null) {
                tpch.close();
            }
        }
    }

    static Stream<Integer> queries() {
        return IntStream.rangeClosed(1, TpchSql.COUNT).boxed();
    }

    @ParameterizedTest(name = "q{0} on 1x2")
    @MethodSource("queries")
    void onOneCnOfTwoCoresTheSameAsDuckDbOverTheFiles(final int q) throws Exception {
        final String sql = TpchSql.text(q);
        try (QueryRunner runner = new QueryRunner(tpch.catalog(), 2, StrategyConfig.defaults())) {
            TpchOracle.assertSameAsDuckDb(tpch.duck(), "q" + q, sql, runner.run(planner.plan(sql).plan()));
        }
    }

    @ParameterizedTest(name = "q{0} on 3x2")
    @MethodSource("queries")
    void onAClusterOfThreeCnsTheSameAsDuckDbOverTheFiles(final int q) throws Exception {
        final String sql = TpchSql.text(q);
        final Session.Execution execution = cluster.execute("q" + q, planner.plan(sql).plan(), StrategyConfig.defaults());
        TpchOracle.assertSameAsDuckDb(tpch.duck(), "q" + q, sql, execution.result());
    }

    @Test
    void aFilterOnTheKeyTheFilesAreInOrderOfReadsOnlyTheFilesWhoseBoundsMatch() throws Exception {
        // An orderkey range inside the second file of lineitem: its bounds rule the other three out.
        final long lo;
        final long hi;
        try (Statement s = tpch.duck().createStatement(); ResultSet r = s.executeQuery("select min(l_orderkey),"
                + " max(l_orderkey) from read_parquet('" + tpch.files("lineitem").get(1) + "')")) {
            r.next();
            lo = r.getLong(1) + 1;
            hi = r.getLong(2) - 1;
        }
        try (IcebergCatalog catalog = IcebergCatalog.open(tpch.catalogUri(), IcebergTpch.NAMESPACE)) {
            final IcebergTable lineitem = catalog.table("lineitem");
            assertThat(lineitem.blockFiles().fileCount()).isEqualTo(FILES);
            final String sql = "select count(*) as n, sum(l_quantity) as q from lineitem where l_orderkey between "
                    + lo + " and " + hi;
            run(catalog, "selective", sql);
            assertThat(lineitem.reads().filesRead()).as("files read by the selective scan").isEqualTo(1);
            final int blocksOfFile = lineitem.blockFiles().firstBlock(2) - lineitem.blockFiles().firstBlock(1);
            assertThat(lineitem.reads().blocksRead()).as("row groups read").isPositive()
                    .isLessThanOrEqualTo(blocksOfFile);
        }
        try (IcebergCatalog catalog = IcebergCatalog.open(tpch.catalogUri(), IcebergTpch.NAMESPACE)) {
            run(catalog, "unselective", "select count(*) as n from lineitem where l_quantity < 2");
            assertThat(catalog.table("lineitem").reads().filesRead()).as("files read by a scan no bound prunes")
                    .isEqualTo(FILES);
        }
    }

    private static void run(final IcebergCatalog catalog, final String name, final String sql) throws Exception {
        try (QueryRunner runner = new QueryRunner(catalog, 2, StrategyConfig.defaults())) {
            TpchOracle.assertSameAsDuckDb(tpch.duck(), name, sql,
                    runner.run(new SqlPlanner(catalog, catalog.tableNames()).plan(sql).plan()));
        }
    }
}
