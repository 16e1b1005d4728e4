package io.sluice.perf.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.StringKey;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.parquet.ParquetTable;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TPC-H over Parquet files DuckDB wrote (SF 0.01, row groups of 8192 rows): the 22 queries from their SQL
 * text, planned over the files' statistics and run on one CN of 2 cores and on an embedded cluster of 3 CNs
 * x 2 cores, return what DuckDB returns reading the same files; every zonemap is the statistic DuckDB's
 * {@code parquet_metadata()} reports for that row group and column; and a colocated join of lineitem and
 * orders, both in orderkey order, moves almost none of the rows a hash shuffle moves.
 */
class ParquetTpchTest {
    @TempDir
    static Path dir;

    private static ParquetTpch tpch;
    private static SqlPlanner planner;
    private static Session cluster;

    @BeforeAll
    static void generate() throws Exception {
        tpch = ParquetTpch.generate(dir, 0.01, 8192);
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
    void aColocatedJoinOverFilesInOrderkeyOrderMovesAtMostOnePercentOfWhatAHashShuffleMoves() throws Exception {
        assertThat(tpch.catalog().table("lineitem").sortKey()).isEqualTo("l_orderkey");
        assertThat(tpch.catalog().table("orders").sortKey()).isEqualTo("o_orderkey");
        final String sql = TpchSql.text(12);
        final Session.Execution colocated = cluster.execute("q12", planner.plan(sql).plan(),
                StrategyConfig.defaults().withStrategy(Strategy.COLOCATE));
        final Session.Execution hashed = cluster.execute("q12", planner.plan(sql).plan(),
                StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH));
        TpchOracle.assertSameAsDuckDb(tpch.duck(), "q12 colocated", sql, colocated.result());
        TpchOracle.assertSameAsDuckDb(tpch.duck(), "q12 hashed", sql, hashed.result());
        assertThat(hashed.stats().rowsRemote()).as("rows a hash shuffle moves across CNs").isGreaterThan(10_000);
        assertThat(colocated.stats().rowsRemote()).as("rows the colocated join moves across CNs")
                .isLessThanOrEqualTo(hashed.stats().rowsRemote() / 100);
        assertThat(colocated.stats().wholeBlockRoutes()).as("row groups routed whole").isPositive();
    }

    @Test
    void everyZoneMapIsTheRowGroupStatisticDuckDbReports() throws Exception {
        int checked = 0;
        for (final TpchTable t : TpchTable.values()) {
            final ParquetTable table = tpch.catalog().table(t.tableName());
            try (Statement s = tpch.duck().createStatement();
                 ResultSet rs = s.executeQuery("select row_group_id, path_in_schema, stats_min_value, stats_max_value,"
                         + " stats_null_count, row_group_num_rows from parquet_metadata('"
                         + tpch.dir().resolve(t.tableName() + ".parquet") + "')")) {
                while (rs.next()) {
                    final int block = rs.getInt(1);
                    final int column = table.schema().require(rs.getString(2));
                    final TypeKind kind = table.schema().type(column).kind();
                    final int scale = table.schema().type(column).scale();
                    final String where = t.tableName() + "." + rs.getString(2) + " row group " + block;
                    assertThat(table.zoneMap(block, column)).as(where).isEqualTo(new ZoneMap(
                            key(kind, scale, rs.getString(3)), key(kind, scale, rs.getString(4)), rs.getInt(5),
                            rs.getInt(6)));
                    checked++;
                }
            }
            assertThat(table.blockCount()).as(t.tableName() + " blocks").isEqualTo(
                    (int) ((table.rowCount() + 8191) / 8192));
        }
        assertThat(checked).isGreaterThan(100);
    }

    /** A statistic as DuckDB prints it, as a zonemap key. */
    private static long key(final TypeKind kind, final int scale, final String text) {
        return switch (kind) {
            case DATE -> LocalDate.parse(text).toEpochDay();
            case DECIMAL -> new BigDecimal(text).movePointRight(scale).longValueExact();
            case STRING -> StringKey.of(text);
            default -> Long.parseLong(text);
        };
    }
}
