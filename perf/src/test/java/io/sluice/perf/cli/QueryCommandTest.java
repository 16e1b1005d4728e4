package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.Queries;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
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
        for (final TpchTable t : List.of(TpchTable.LINEITEM, TpchTable.ORDERS, TpchTable.CUSTOMER)) {
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
    @SuppressWarnings("unchecked")
    void onAClusterItExplainsThePlanAndWritesWhatCrossedCns() throws Exception {
        final Path json = dir.resolve("stats.json");
        final Cli.Result colocate = Cli.run("query", "--store", storeDir.toString(), "--workload", "join_lo",
                "--cn", "3", "--cores", "2", "--strategy", "colocate", "--explain=analyze", "--stats-json", json.toString(),
                "--format", "csv");
        assertThat(colocate.exitCode()).as(colocate.toString()).isZero();
        final Cli.Result local = Cli.run("query", "--store", storeDir.toString(), "--workload", "join_lo",
                "--format", "csv");
        assertThat(colocate.out()).as("the same answer as on one node").isEqualTo(local.out());
        assertThat(colocate.err()).contains("Distributed plan of join_lo on 3x2 (6 buckets)", "[RANGE]", "[SINGLE]",
                "EXCHANGE OUT #0 GATHER", "colocated scan lineitem");
        final Map<String, Object> stats = (Map<String, Object>) MiniJson.parse(Files.readString(json));
        assertThat(stats).containsKeys("query", "strategy", "cn", "cores", "buckets", "wall_ms", "rows_remote",
                "bytes_remote", "rows_local", "bytes_local", "whole_block_routes", "split_batches", "exchanges", "sorts");
        assertThat(number(stats.get("cn"))).isEqualTo(3);
        assertThat(number(stats.get("buckets"))).isEqualTo(6);
        assertThat(number(stats.get("rows_remote"))).as("only the two partial aggregates of CNs 1 and 2").isEqualTo(2);
        final List<Map<String, Object>> exchanges = (List<Map<String, Object>>) stats.get("exchanges");
        assertThat(exchanges).singleElement().satisfies(e -> {
            assertThat(e).containsEntry("mode", "GATHER").containsKeys("id", "rows_remote", "bytes_remote",
                    "rows_local", "bytes_local", "bucket_rows");
            final List<Object> bucketRows = (List<Object>) e.get("bucket_rows");
            assertThat(bucketRows).hasSize(6);
            assertThat(number(bucketRows.get(0))).as("the coordinator's bucket gets one row per CN").isEqualTo(3);
        });

        final Cli.Result hash = Cli.run("query", "--store", storeDir.toString(), "--workload", "join_lo",
                "--cn", "3", "--cores", "2", "--strategy", "shuffle-hash", "--stats-json", json.toString());
        assertThat(hash.exitCode()).as(hash.toString()).isZero();
        final Map<String, Object> moved = (Map<String, Object>) MiniJson.parse(Files.readString(json));
        final long lineitemAndOrders = Store.open(storeDir).table("lineitem").rowCount()
                + Store.open(storeDir).table("orders").rowCount();
        assertThat((double) number(moved.get("rows_remote")) / lineitemAndOrders).as("about 2/3 cross CNs")
                .isBetween(0.6, 0.73);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theStatsListEachRuntimeFilterAndABadModeNamesTheValidOnes() throws Exception {
        final Path json = dir.resolve("filters.json");
        final Cli.Result r = Cli.run("query", "--store", storeDir.toString(), "--tpch", "3",
                "--cores", "2", "--strategy", "colocate", "--stats-json", json.toString(), "--format", "csv");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        final Map<String, Object> stats = (Map<String, Object>) MiniJson.parse(Files.readString(json));
        final List<Map<String, Object>> filters = (List<Map<String, Object>>) stats.get("runtime_filters");
        assertThat(filters).isNotEmpty().allSatisfy(f -> assertThat(f).containsKeys("id", "build", "probe", "kinds",
                "scope", "build_rows", "probe_rows_in", "probe_rows_out", "blocks_skipped", "wait_ms", "state"));
        assertThat(filters).filteredOn(f -> f.get("probe").equals(List.of("l_orderkey"))).singleElement()
                .satisfies(f -> {
                    assertThat(f).containsEntry("scope", "per-bucket");
                    assertThat(number(f.get("build_rows"))).isPositive()
                            .isLessThan(Store.open(storeDir).table("orders").rowCount());
                });
        final Cli.Result off = Cli.run("query", "--store", storeDir.toString(), "--tpch", "3",
                "--cores", "2", "--runtime-filters", "off", "--stats-json", json.toString(), "--format", "csv");
        assertThat(off.out()).isEqualTo(r.out());
        assertThat((List<Object>) ((Map<String, Object>) MiniJson.parse(Files.readString(json))).get("runtime_filters"))
                .isEmpty();
        final Cli.Result bad = Cli.run("query", "--store", storeDir.toString(), "--tpch", "4", "--runtime-filters",
                "sometimes");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).contains("--runtime-filters", "'sometimes'", "off, local, global");
    }

    private static long number(final Object json) {
        return Long.parseLong(((MiniJson.Num) json).text());
    }

    @Test
    void anImpossibleClusterIsAClearError() {
        final Cli.Result r = Cli.run("query", "--store", storeDir.toString(), "--tpch", "4", "--cn", "0");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("sluice query: error:", "CN");
        final Cli.Result unwritable = Cli.run("query", "--store", storeDir.toString(), "--tpch", "4", "--cn", "2",
                "--stats-json", dir.resolve("no/such/dir/s.json").toString());
        assertThat(unwritable.exitCode()).isEqualTo(1);
        assertThat(unwritable.err()).contains("--stats-json", "does not exist");
    }

    @Test
    void workloadHeaderNamesUnnamedAggregatesAsDuckDb() {
        final Cli.Result r = Cli.run("query", "--store", storeDir.toString(), "--workload", "join_lo",
                "--format", "csv", "--cores", "3");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("count_star(),sum(o_totalprice)\r\n");
    }

    @Test
    void aTpchQueryWithoutAHandWrittenPlanRunsFromItsSqlText() throws Exception {
        final Cli.Result r = Cli.run("query", "--store", storeDir.toString(), "--tpch", "4", "--format", "csv");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        final Cli.Result fromText = Cli.run("sql", "--store", storeDir.toString(), "--format", "csv",
                io.sluice.perf.tpch.TpchSql.text(4));
        assertThat(fromText.out()).isEqualTo(r.out());
        final Cli.Result lacking = Cli.run("query", "--store", storeDir.toString(), "--tpch", "14");
        assertThat(lacking.exitCode()).isEqualTo(1);
        assertThat(lacking.err()).contains("lacks table(s) [part]", "sluice gen");
        final Path withPart = dir.resolve("with-part");
        final Store store = Store.create(withPart);
        for (final TpchTable t : List.of(TpchTable.LINEITEM, TpchTable.PART)) {
            try (Table ignored = TpchLoader.load(store, t, 0.01, rows -> { })) {
                assertThat(ignored.rowCount()).isPositive();
            }
        }
        final Cli.Result q14 = Cli.run("query", "--store", withPart.toString(), "--tpch", "14", "--format", "csv");
        assertThat(q14.exitCode()).as(q14.toString()).isZero();
        try (Connection c = DuckDbLoader.openInMemory(1); Statement s = c.createStatement()) {
            DuckDbLoader.load(Store.open(withPart), List.of("lineitem", "part"), c);
            try (ResultSet rs = s.executeQuery(io.sluice.perf.tpch.TpchSql.text(14))) {
                assertThat(rs.next()).isTrue();
                final String[] lines = q14.out().split("\r\n");
                assertThat(lines[0]).isEqualTo("promo_revenue");
                assertThat(Double.parseDouble(lines[1])).isCloseTo(rs.getDouble(1),
                        org.assertj.core.data.Percentage.withPercentage(1e-9));
            }
        }
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
        assertFails(Cli.run("query", "--store", store, "--tpch", "99"), 1, "TPC-H has queries 1 to 22, not 99");
        assertFails(Cli.run("query", "--store", store, "--workload", "nope"), 1, "unknown workload 'nope'");
        assertFails(Cli.run("query", "--store", store, "--tpch", "6", "--cores", "0"), 1, "--cores must be 1 or more");
        assertFails(Cli.run("query", "--store", ordersOnly.toString(), "--tpch", "6"), 1, "lacks table(s) [lineitem]");
        assertFails(Cli.run("query", "--store", dir.resolve("absent").toString(), "--tpch", "6"), 1, "does not exist");
        assertFails(Cli.run("query", "--store", store, "--tpch", "6", "--workload", "join_lo"), 2, "mutually exclusive");
        assertFails(Cli.run("query", "--store", store), 2, "Missing required");
    }

    @Test
    void aStorePathThatIsAFileSaysSo() throws Exception {
        final Path file = Files.writeString(dir.resolve("a-file"), "x");
        for (final String command : new String[] {"query", "inspect"}) {
            final List<String> args = new java.util.ArrayList<>(List.of(command, "--store", file.toString()));
            if (command.equals("query")) {
                args.addAll(List.of("--tpch", "6"));
            }
            final Cli.Result r = Cli.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).startsWith("sluice " + command + ": error: store " + file + " is not a directory");
        }
    }

    @Test
    void theHintForAMissingTableIsACommandThatWorks() {
        final Path store = dir.resolve("hint");
        assertThat(Cli.run("gen", "--sf", "0.01", "--out", store.toString(), "--tables", "orders").exitCode()).isZero();
        final Cli.Result missing = Cli.run("query", "--store", store.toString(), "--tpch", "4");
        assertFails(missing, 1, "lacks table(s) [lineitem] that q4 reads: generate them with `sluice gen --sf 0.01"
                + " --out " + store + " --tables lineitem`");
        for (final String command : Hints.commands(missing.err())) {
            assertThat(Hints.run(command).exitCode()).as(command).isZero();
        }
        final Cli.Result q4 = Cli.run("query", "--store", store.toString(), "--tpch", "4", "--format", "csv");
        assertThat(q4.exitCode()).as(q4.toString()).isZero();
        assertThat(q4.out()).isEqualTo(Cli.run("query", "--store", storeDir.toString(), "--tpch", "4", "--format",
                "csv").out());
    }

    @Test
    void statsJsonNamingADirectoryFailsBeforeTheQueryRuns() {
        final Cli.Result r = Cli.run("query", "--store", storeDir.toString(), "--tpch", "6", "--stats-json",
                dir.toString());
        assertFails(r, 1, "--stats-json " + dir + " is a directory: give a file to write, e.g. --stats-json "
                + dir.resolve("stats.json"));
        assertThat(r.out()).as("no result printed: the query did not run").isEmpty();
    }

    @Test
    void networkUdpWithoutCnRunsOneCnOverUdp() {
        final Cli.Result udp = Cli.run("query", "--store", storeDir.toString(), "--tpch", "6", "--network", "udp",
                "--explain=analyze", "--format", "csv");
        assertThat(udp.exitCode()).as(udp.toString()).isZero();
        assertThat(udp.err()).contains("Distributed plan of q6 on 1x");
        assertThat(udp.out()).isEqualTo(Cli.run("query", "--store", storeDir.toString(), "--tpch", "6", "--format",
                "csv").out());
        assertFails(Cli.run("query", "--store", storeDir.toString(), "--tpch", "6", "--network", "tcp"), 1, "tcp");
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
