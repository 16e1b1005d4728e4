package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.cli.DuckDbCsv;
import io.sluice.perf.cli.StorelessSqlClient;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpch.TpchSql;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice sql --coordinator} on a coordinator and two CN processes that authenticate with a secret:
 * the statement, planned here over the store the CNs read, runs on the cluster and prints DuckDB's rows;
 * {@code --stats-json} records the shape it ran on and what crossed between the processes; {@code --cn}
 * and {@code --cores} choose the shape; without the secret, or with bad SQL, it fails with a clear error.
 */
class SqlOnClusterTest {
    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static Connection duck;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopbackWithSecret(dir, 0.01, 2, 2, "-Xmx384m");
        duck = DuckDbLoader.openInMemory(1);
        DuckDbLoader.load(fixture.oracle().store(), List.of("lineitem", "orders", "part"), duck);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (duck != null) {
                duck.close();
            }
        } finally {
            if (fixture != null) {
                fixture.close();
            }
        }
    }

    private static Cli.Result sql(final String... args) {
        final List<String> all = new ArrayList<>(List.of("sql", "--store", fixture.oracle().store().dir().toString(),
                "--coordinator", fixture.cluster().endpoint().toString(), "--secret-file",
                fixture.secretFile().toString()));
        all.addAll(List.of(args));
        return Cli.run(all.toArray(String[]::new));
    }

    /** DuckDB's rows for a statement as CSV lines, its column labels first. */
    private static List<String> duckDbCsv(final String sql) throws Exception {
        return DuckDbCsv.of(duck, sql);
    }

    private static long number(final String json, final String key) {
        final Matcher m = Pattern.compile("\"" + key + "\": (\\d+)").matcher(json);
        assertThat(m.find()).as("%s in %s", key, json).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void aStatementRunsOnEveryCnProcessWithDuckDbsRowsAndItsStatsInTheQueryCommandsJson() throws Exception {
        final Path q12 = Files.writeString(dir.resolve("q12.sql"), TpchSql.text(12));
        final Path stats = dir.resolve("stats.json");
        final Cli.Result r = sql("-f", q12.toString(), "--strategy", "shuffle-hash", "--format", "csv",
                "--stats-json", stats.toString(), "--explain=analyze", "--timeout", "120000");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(List.of(r.out().split("\r\n"))).isEqualTo(duckDbCsv(TpchSql.text(12)));
        assertThat(r.err()).contains("estimate scan lineitem", "Distributed plan of sql on 2x2");
        final String json = Files.readString(stats);
        assertThat(json).contains("\"query\": \"sql\"", "\"exchanges\": [", "\"runtime_filters\": [");
        assertThat(number(json, "cn")).isEqualTo(2);
        assertThat(number(json, "buckets")).isEqualTo(4);
        assertThat(number(json, "rows_remote")).as("a hash shuffle between two processes moves rows").isPositive();
        assertThat(number(json, "bytes_remote")).isPositive();
    }

    @Test
    void aClientProcessWithoutAStoreSendsSqlTextAndGetsDuckDbsRows() throws Exception {
        final String sql = TpchSql.text(12);
        try (JavaProcess client = JavaProcess.of(StorelessSqlClient.class).jvmArgs("-Xmx192m")
                .args(fixture.cluster().endpoint().toString(), fixture.secretFile().toString(), sql).start()) {
            assertThat(client.awaitExit(Duration.ofSeconds(120))).as("%s: %s", client, client.stderr()).isZero();
            assertThat(client.stdout()).isEqualTo(duckDbCsv(sql));
        }
    }

    /** Result columns named alike: SQL, DuckDB and MySQL keep the name, the plan's own columns are unique. */
    private static final String SHARED_NAMES = "select a.o_orderkey, b.o_orderkey, a.o_orderpriority, b.o_orderpriority"
            + " from orders a join orders b on a.o_orderkey = b.o_custkey where a.o_orderkey < 300"
            + " order by a.o_orderkey, b.o_orderkey";

    @Test
    void columnsThatShareANameKeepItOnTheClusterAsDuckDbNamesThem() throws Exception {
        final List<String> expected = duckDbCsv(SHARED_NAMES);
        assertThat(expected.get(0)).isEqualTo("o_orderkey,o_orderkey,o_orderpriority,o_orderpriority");
        assertThat(expected).as("rows to compare").hasSizeGreaterThan(2);
        final String coordinator = fixture.cluster().endpoint().toString();
        final String secret = fixture.secretFile().toString();

        final Path stats = dir.resolve("shared.json");
        final Cli.Result text = Cli.run("sql", "--coordinator", coordinator, "--secret-file", secret, "--format", "csv",
                "--stats-json", stats.toString(), SHARED_NAMES);
        assertThat(text.exitCode()).as("%s%n%s", text, fixture.cluster().diagnostics()).isZero();
        assertThat(List.of(text.out().split("\r\n"))).as("planned by the coordinator").isEqualTo(expected);
        assertThat(number(Files.readString(stats), "cn")).isEqualTo(2);

        final Cli.Result planned = sql("--format", "csv", SHARED_NAMES);
        assertThat(planned.exitCode()).as(planned.toString()).isZero();
        assertThat(List.of(planned.out().split("\r\n"))).as("planned here").isEqualTo(expected);

        final Cli.Result table = Cli.run("sql", "--coordinator", coordinator, "--secret-file", secret, SHARED_NAMES);
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out().lines().findFirst().orElseThrow().trim().split("\\s*\\|\\s*"))
                .containsExactly("o_orderkey", "o_orderkey", "o_orderpriority", "o_orderpriority");

        try (JavaProcess client = JavaProcess.of(StorelessSqlClient.class).jvmArgs("-Xmx192m")
                .args(coordinator, secret, SHARED_NAMES).start()) {
            assertThat(client.awaitExit(Duration.ofSeconds(120))).as("%s: %s", client, client.stderr()).isZero();
            assertThat(client.stdout()).as("the library's Session").isEqualTo(expected);
        }

        // A JSON object cannot hold a key twice: JSON keys each row by the plan's own, unique names.
        final Cli.Result json = Cli.run("sql", "--coordinator", coordinator, "--secret-file", secret, "--format",
                "json", SHARED_NAMES);
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out()).contains("\"o_orderkey\"", "\"o_orderkey0\"", "\"o_orderpriority0\"");
    }

    @Test
    void sqlWithACoordinatorNeedsNoStoreAndNamesWhatItCannotDoWithout() throws Exception {
        final String sql = "select o_orderpriority, count(*) as n from orders group by o_orderpriority"
                + " order by o_orderpriority";
        final Cli.Result r = Cli.run("sql", "--coordinator", fixture.cluster().endpoint().toString(), "--secret-file",
                fixture.secretFile().toString(), "--format", "csv", sql);
        assertThat(r.exitCode()).as("%s%n%s", r, fixture.cluster().diagnostics()).isZero();
        assertThat(List.of(r.out().split("\r\n"))).isEqualTo(duckDbCsv(sql));
        final Cli.Result explain = Cli.run("sql", "--coordinator", fixture.cluster().endpoint().toString(),
                "--secret-file", fixture.secretFile().toString(), "--explain", sql);
        assertThat(explain.exitCode()).isEqualTo(1);
        assertThat(explain.err()).contains("--explain needs --store DIR");
        final Cli.Result neither = Cli.run("sql", sql);
        assertThat(neither.exitCode()).isNotZero();
        assertThat(neither.err()).contains("give --store DIR", "or --coordinator HOST:PORT");
    }

    @Test
    void queryWithACoordinatorAndNoStoreSendsTheTpchTextForTheCoordinatorToPlan() throws Exception {
        // Q14 has no hand-written plan: only the coordinator, which has the store, can plan it
        final Path stats = dir.resolve("q14.json");
        final Cli.Result r = Cli.run("query", "--coordinator", fixture.cluster().endpoint().toString(),
                "--secret-file", fixture.secretFile().toString(), "--tpch", "14", "--format", "csv", "--stats-json",
                stats.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(List.of(r.out().split("\r\n"))).isEqualTo(duckDbCsv(TpchSql.text(14)));
        assertThat(number(Files.readString(stats), "cn")).isEqualTo(2);
        final Cli.Result explain = Cli.run("query", "--coordinator", fixture.cluster().endpoint().toString(),
                "--secret-file", fixture.secretFile().toString(), "--tpch", "14", "--explain");
        assertThat(explain.exitCode()).isEqualTo(1);
        assertThat(explain.err()).contains("--explain plans here over the store's zonemaps: add --store DIR");
    }

    @Test
    void cnAndCoresChooseTheShape() throws Exception {
        final String sql = "select o_orderpriority, count(*) as n from orders group by o_orderpriority"
                + " order by o_orderpriority";
        final Path stats = dir.resolve("one.json");
        final Cli.Result r = sql(sql, "--cn", "1", "--cores", "1", "--format", "csv", "--stats-json", stats.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(List.of(r.out().split("\r\n"))).isEqualTo(duckDbCsv(sql));
        final String json = Files.readString(stats);
        assertThat(number(json, "cn")).isEqualTo(1);
        assertThat(number(json, "cores")).isEqualTo(1);
        assertThat(number(json, "rows_remote")).as("nothing crosses on one CN").isZero();
    }

    @Test
    void badSqlAMissingSecretAndTooManyCnsAreClearErrors() {
        final Cli.Result bad = sql("select soundex(o_comment) from orders");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(1);
        assertThat(bad.err()).startsWith("sluice sql: error: the statement: SQL not supported at line 1, column 8:");
        final Cli.Result noSecret = Cli.run("sql", "--store", fixture.oracle().store().dir().toString(),
                "--coordinator", fixture.cluster().endpoint().toString(), "select count(*) from orders");
        assertThat(noSecret.exitCode()).as(noSecret.toString()).isEqualTo(1);
        assertThat(noSecret.err()).startsWith("sluice sql: error: ").contains("authentication failed");
        final Cli.Result tooMany = sql("select count(*) from orders", "--cn", "3");
        assertThat(tooMany.exitCode()).as(tooMany.toString()).isEqualTo(1);
        assertThat(tooMany.err()).contains("asks for 3 CNs but 2 are alive");
    }
}
