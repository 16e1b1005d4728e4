package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.Queries;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.tpch.TpchLoader;
import io.sluice.storage.tpch.TpchTable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryCommandTest {
    @TempDir
    static Path dir;

    private static Path storeDir;
    private static Path ordersOnly;

    @BeforeAll
    static void generate() {
        storeDir = dir.resolve("full");
        final Store store = Store.create(storeDir);
        for (final TpchTable t : List.of(TpchTable.LINEITEM, TpchTable.ORDERS)) {
            try (Table ignored = TpchLoader.load(store, t, 0.01, rows -> { })) {
                assertThat(ignored.rowCount()).isPositive();
            }
        }
        ordersOnly = dir.resolve("orders");
        try (Table ignored = TpchLoader.load(Store.create(ordersOnly), TpchTable.ORDERS, 0.01, rows -> { })) {
            assertThat(ignored.rowCount()).isPositive();
        }
    }

    @Test
    void csvMatchesDuckDbRowByRow() throws Exception {
        final Cli.Result r = Cli.run("query", "--store", storeDir.toString(), "--tpch", "1", "--cores", "2",
                "--format", "csv");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        final String[] lines = r.out().split("\r\n");
        assertThat(lines[0]).isEqualTo("l_returnflag,l_linestatus,sum_qty,sum_base_price,sum_disc_price,sum_charge,"
                + "avg_qty,avg_price,avg_disc,count_order");
        try (Connection c = DuckDbLoader.openInMemory(1); Statement s = c.createStatement()) {
            DuckDbLoader.load(Store.open(storeDir), List.of("lineitem"), c);
            try (ResultSet rs = s.executeQuery(Queries.tpch(1).sql())) {
                int row = 1;
                while (rs.next()) {
                    final String[] fields = lines[row++].split(",");
                    assertThat(fields[0]).isEqualTo(rs.getString(1));
                    assertThat(fields[1]).isEqualTo(rs.getString(2));
                    for (int col = 3; col <= 6; col++) {
                        // Decimals print with their exact scale, as DuckDB's DECIMAL(38,s) does.
                        assertThat(fields[col - 1]).isEqualTo(rs.getBigDecimal(col).toPlainString());
                    }
                    assertThat(Double.parseDouble(fields[6])).isCloseTo(rs.getDouble(7),
                            org.assertj.core.data.Percentage.withPercentage(1e-7));
                    assertThat(fields[9]).isEqualTo(Long.toString(rs.getLong(10)));
                }
                assertThat(lines).hasSize(row);
            }
        }
    }

    @Test
    void workloadHeaderNamesUnnamedAggregatesAsDuckDb() {
        final Cli.Result r = Cli.run("query", "--store", storeDir.toString(), "--workload", "join_lo",
                "--format", "csv", "--cores", "3");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("count_star(),sum(o_totalprice)\r\n");
    }

    @Test
    void tableAndJsonFormats() {
        final Cli.Result table = Cli.run("query", "--store", storeDir.toString(), "--tpch", "6");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).startsWith("revenue").contains("(1 row)");
        final Cli.Result json = Cli.run("query", "--store", storeDir.toString(), "--tpch", "4", "--format", "json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out()).contains("\"o_orderpriority\": \"1-URGENT\"").contains("\"order_count\": ");
    }

    @Test
    void badInputFailsWithAClearError() {
        final String store = storeDir.toString();
        assertFails(Cli.run("query", "--store", store, "--tpch", "99"), 1, "TPC-H query 99 is not implemented");
        assertFails(Cli.run("query", "--store", store, "--workload", "nope"), 1, "unknown workload 'nope'");
        assertFails(Cli.run("query", "--store", store, "--tpch", "6", "--cores", "0"), 1, "--cores must be 1 or more");
        assertFails(Cli.run("query", "--store", ordersOnly.toString(), "--tpch", "6"), 1, "lacks table(s) [lineitem]");
        assertFails(Cli.run("query", "--store", dir.resolve("absent").toString(), "--tpch", "6"), 1, "does not exist");
        assertFails(Cli.run("query", "--store", store, "--tpch", "6", "--workload", "join_lo"), 2, "mutually exclusive");
        assertFails(Cli.run("query", "--store", store), 2, "Missing required");
    }

    @Test
    void csvFieldsAreQuotedPerRfc4180() {
        assertThat(ResultPrinter.csvField("plain")).isEqualTo("plain");
        assertThat(ResultPrinter.csvField("a,b")).isEqualTo("\"a,b\"");
        assertThat(ResultPrinter.csvField("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(ResultPrinter.csvField("two\nlines")).isEqualTo("\"two\nlines\"");
    }

    private static void assertFails(final Cli.Result r, final int exitCode, final String message) {
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(exitCode);
        assertThat(r.err()).as(r.toString()).contains(message);
        if (exitCode == 1) {
            assertThat(r.err()).startsWith("sluice query: error: ");
        }
    }
}
