package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlCommandTest {
    @TempDir
    static Path dir;

    private static Path storeDir;

    @BeforeAll
    static void generate() {
        storeDir = dir.resolve("store");
        final Store store = Store.create(storeDir);
        for (final TpchTable t : List.of(TpchTable.LINEITEM, TpchTable.ORDERS)) {
            try (Table ignored = TpchLoader.load(store, t, 0.01, rows -> { })) {
                assertThat(ignored.rowCount()).isPositive();
            }
        }
    }

    /** DuckDB's rows for a statement over the store, as CSV lines with its column labels first. */
    private static List<String> duckDbCsv(final String sql) throws Exception {
        try (Connection c = DuckDbLoader.openInMemory(1)) {
            DuckDbLoader.load(Store.open(storeDir), List.of("lineitem", "orders"), c);
            return DuckDbCsv.of(c, sql);
        }
    }

    @Test
    void csvFromAFileHasTheSelectListsNamesAndDuckDbsRows() throws Exception {
        final Path file = dir.resolve("q12.sql");
        Files.writeString(file, TpchSql.text(12));
        final Cli.Result r = Cli.run("sql", "--store", storeDir.toString(), "-f", file.toString(), "--cores", "2",
                "--format", "csv");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(List.of(r.out().split("\r\n"))).isEqualTo(duckDbCsv(TpchSql.text(12)));
    }

    @Test
    void unnamedExpressionsAreNamedAsDuckDbNamesThem() throws Exception {
        final String sql = "select l_returnflag, count(*), sum(l_quantity), max(l_shipdate) as last"
                + " from lineitem where l_orderkey < 1000 group by l_returnflag order by l_returnflag";
        final Cli.Result r = Cli.run("sql", "--store", storeDir.toString(), sql, "--cn", "2", "--cores", "2",
                "--format", "csv", "--strategy", "shuffle-hash");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(List.of(r.out().split("\r\n"))).isEqualTo(duckDbCsv(sql));
    }

    @Test
    void everyRuntimeFilterModeGivesDuckDbsRowsAndABadModeNamesTheValidOnes() throws Exception {
        for (final String mode : List.of("off", "local", "global")) {
            final Cli.Result r = Cli.run("sql", "--store", storeDir.toString(), TpchSql.text(12), "--cn", "3", "--cores",
                    "2", "--format", "csv", "--strategy", "shuffle-hash", "--runtime-filters", mode);
            assertThat(r.exitCode()).as(mode + ": " + r).isZero();
            assertThat(List.of(r.out().split("\r\n"))).as(mode).isEqualTo(duckDbCsv(TpchSql.text(12)));
        }
        final Cli.Result bad = Cli.run("sql", "--store", storeDir.toString(), "select 1 from nation",
                "--runtime-filters", "sometimes");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).contains("--runtime-filters", "off", "local", "global");
    }

    @Test
    void explainShowsTheEstimatesAndTheStrategies() {
        final Cli.Result r = Cli.run("sql", "--store", storeDir.toString(), "--explain", "--cores", "2",
                TpchSql.text(4));
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("planned in ", "estimate scan orders: ", "blocks kept by [o_orderdate >= ",
                "estimate semi join [o_orderkey] = [l_orderkey]", "the outer rows are built and marked (right semi join)",
                "  join [l_orderkey] = [o_orderkey]: ");
    }

    @Test
    void unsupportedSqlIsAnErrorWithItsPositionAndNoStackTrace() {
        final Cli.Result insert = Cli.run("sql", "--store", storeDir.toString(), "insert into orders select * from orders");
        assertThat(insert.exitCode()).as(insert.toString()).isEqualTo(1);
        assertThat(insert.err()).startsWith("sluice sql: error: the statement: SQL not supported at line 1, column 1:"
                + " insert statements are not supported");
        final Cli.Result function = Cli.run("sql", "--store", storeDir.toString(),
                "select o_orderkey,\n       soundex(o_comment) from orders");
        assertThat(function.exitCode()).isEqualTo(1);
        assertThat(function.err()).contains("at line 2, column 8: the function soundex is not supported")
                .doesNotContain("\tat ");
        final Cli.Result table = Cli.run("sql", "--store", storeDir.toString(), "select * from customer");
        assertThat(table.exitCode()).isEqualTo(1);
        assertThat(table.err()).contains("line 1, column 15", "customer");
    }

    @Test
    @SuppressWarnings("unchecked")
    void statsJsonIsWhatSluiceQueryWritesAndTheRowsAreDuckDbs() throws Exception {
        final Path sqlJson = dir.resolve("sql-stats.json");
        final Cli.Result r = Cli.run("sql", "--store", storeDir.toString(), "-f", writeQ12(), "--cn", "3", "--cores",
                "2", "--strategy", "shuffle-hash", "--format", "csv", "--stats-json", sqlJson.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(List.of(r.out().split("\r\n"))).isEqualTo(duckDbCsv(TpchSql.text(12)));
        final Path queryJson = dir.resolve("query-stats.json");
        final Cli.Result q = Cli.run("query", "--store", storeDir.toString(), "--tpch", "12", "--cn", "3", "--cores",
                "2", "--strategy", "shuffle-hash", "--stats-json", queryJson.toString());
        assertThat(q.exitCode()).as(q.toString()).isZero();
        final Map<String, Object> fromSql = (Map<String, Object>) MiniJson.parse(Files.readString(sqlJson));
        final Map<String, Object> fromQuery = (Map<String, Object>) MiniJson.parse(Files.readString(queryJson));
        assertThat(fromSql.keySet()).isEqualTo(fromQuery.keySet());
        assertThat(fromSql).containsEntry("query", "sql").containsEntry("strategy", "shuffle-hash");
        assertThat(Long.parseLong(((MiniJson.Num) fromSql.get("buckets")).text())).isEqualTo(6);
        assertThat(Long.parseLong(((MiniJson.Num) fromSql.get("rows_remote")).text()))
                .as("a hash shuffle over 3 CNs moves rows between them").isPositive();
        final Cli.Result dirAsFile = Cli.run("sql", "--store", storeDir.toString(), "select 1 from orders",
                "--stats-json", dir.toString());
        assertThat(dirAsFile.exitCode()).isEqualTo(1);
        assertThat(dirAsFile.err()).contains("--stats-json " + dir + " is a directory");
    }

    @Test
    void statementsOnStdinRunOneAfterTheOtherAndTheFirstFailureEndsTheCommand() throws Exception {
        final String first = "select o_orderstatus, count(*) from orders group by o_orderstatus order by o_orderstatus";
        final String second = "select l_linestatus, count(*) as n from lineitem where l_quantity < 5"
                + " group by l_linestatus order by l_linestatus";
        final Cli.Result both = withStdin(first + ";\n-- a comment; not a statement\n" + second + "\n",
                "sql", "--store", storeDir.toString(), "--format", "csv", "--cores", "2");
        assertThat(both.exitCode()).as(both.toString()).isZero();
        final List<String> expected = new ArrayList<>(duckDbCsv(first));
        expected.add("");
        expected.addAll(duckDbCsv(second));
        assertThat(List.of(both.out().split("\r\n"))).as("a blank line between the results").isEqualTo(expected);
        assertThat(both.err().lines()).as("each result's row count on stderr, stdout staying CSV").containsExactly(
                "(" + (duckDbCsv(first).size() - 1) + " rows)", "(" + (duckDbCsv(second).size() - 1) + " rows)");
        final Cli.Result failing = withStdin(first + ";\nselect soundex(o_comment) from orders;\n" + second + ";\n",
                "sql", "--store", storeDir.toString(), "--format", "csv", "--cores", "2");
        assertThat(failing.exitCode()).as(failing.toString()).isEqualTo(1);
        assertThat(failing.out()).isEqualTo(String.join("\r\n", duckDbCsv(first)) + "\r\n");
        assertThat(failing.err().lines().toList()).last().asString().startsWith("sluice sql: error: stdin: ")
                .contains("soundex is not supported");
    }

    @Test
    void severalResultsAsTablesOrJsonAreApartEachWithItsRowCount() {
        final String two = "select o_orderstatus from orders group by o_orderstatus order by o_orderstatus limit 2;"
                + " select count(*) as n from orders";
        final Cli.Result table = Cli.run("sql", "--store", storeDir.toString(), two);
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains("(2 rows)\n\nn ").endsWith("(1 row)\n");
        final Cli.Result json = Cli.run("sql", "--store", storeDir.toString(), "--format", "json", two);
        assertThat(json.exitCode()).as(json.toString()).isZero();
        final String[] objects = json.out().strip().split("\n\n");
        assertThat(objects).hasSize(2);
        assertThat(((Map<?, ?>) MiniJson.parse(objects[0])).get("row_count")).isEqualTo(new MiniJson.Num("2"));
        assertThat(((Map<?, ?>) MiniJson.parse(objects[1])).get("row_count")).isEqualTo(new MiniJson.Num("1"));
        assertThat(json.err()).isEmpty();
    }

    private static Cli.Result withStdin(final String input, final String... args) {
        final java.io.InputStream before = System.in;
        System.setIn(new java.io.ByteArrayInputStream(input.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        try {
            return Cli.run(args);
        } finally {
            System.setIn(before);
        }
    }

    private static String writeQ12() throws Exception {
        final Path file = dir.resolve("q12-for-stats.sql");
        Files.writeString(file, TpchSql.text(12));
        return file.toString();
    }

    @Test
    void noStatementOrTwoStatementsAreUsageErrors() {
        final Cli.Result both = Cli.run("sql", "--store", storeDir.toString(), "-f", "x.sql", "select 1");
        assertThat(both.exitCode()).isEqualTo(1);
        assertThat(both.err()).contains("either with -f FILE or as the argument");
        final Cli.Result missing = Cli.run("sql", "--store", storeDir.toString(), "-f", dir.resolve("none.sql").toString());
        assertThat(missing.err()).contains("no such file");
    }
}
