package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.tpcds.TpcdsLoader;
import io.sluice.perf.tpcds.TpcdsTable;
import io.sluice.storage.Store;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice query-bench --benchmark tpcds} and {@code sluice bench --benchmark tpcds} over TPC-DS
 * SF 0.01 with a folder of three of Apache Spark's query texts (the resources of its test jar, a
 * test-scope dependency): q3, q42 and q16, whose backquoted names DuckDB reads double-quoted. Each
 * answer is checked against DuckDB's; nothing depends on the times.
 */
class TpcdsBenchCommandsTest {
    private static final List<String> TEXTS = List.of("q3", "q16", "q42");

    @TempDir
    static Path dir;

    private static Path storeDir;
    private static Path queries;

    @BeforeAll
    static void generate() throws IOException {
        queries = Files.createDirectories(dir.resolve("queries"));
        for (final String q : TEXTS) {
            try (InputStream in = TpcdsBenchCommandsTest.class.getResourceAsStream("/tpcds/" + q + ".sql")) {
                assertThat(in).as("Spark's tpcds/" + q + ".sql on the test classpath").isNotNull();
                Files.write(queries.resolve(q + ".sql"), in.readAllBytes());
            }
        }
        storeDir = dir.resolve("store");
        final Store store = Store.create(storeDir);
        for (final TpcdsTable t : List.of(TpcdsTable.DATE_DIM, TpcdsTable.STORE_SALES, TpcdsTable.ITEM,
                TpcdsTable.CATALOG_SALES, TpcdsTable.CATALOG_RETURNS, TpcdsTable.CUSTOMER_ADDRESS,
                TpcdsTable.CALL_CENTER)) {
            TpcdsLoader.load(store, t, 0.01, false, rows -> { }).close();
        }
    }

    @Test
    void queryBenchRunsTheFoldersTextsAgainstDuckDbAndWritesAResultFile() {
        final Path result = dir.resolve("out").resolve("tpcds.csv");
        final Cli.Result r = Cli.run("query-bench", "--benchmark", "tpcds", "--queries-dir", queries.toString(),
                "--store", storeDir.toString(), "--queries", "q16,3,q42", "--runs", "1", "--warmup", "0",
                "--cores", "2", "--out", result.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        final List<String> rows = r.out().lines().filter(l -> l.matches("^q\\d+ +[0-9.]+ +[0-9.]+ .*")).toList();
        assertThat(rows).as(r.out()).hasSize(3);
        assertThat(rows.get(0)).startsWith("q16 ");
        assertThat(rows.get(1)).startsWith("q03 ");
        assertThat(rows.get(2)).startsWith("q42 ");
        assertThat(r.out()).contains("geometric mean of ratios: ", "over 3 queries").containsPattern(
                "worst ratio: [0-9.]+ \\(q(16|03|42)\\)").doesNotContain("q18 ");
        assertThat(r.err()).doesNotContain("differ", "failed");
        assertThat(result).content().startsWith("query,sluice_ms,duckdb_ms,ratio,status\n")
                .containsPattern("(?m)^q16,[0-9.]+,[0-9.]+,[0-9.]+,ok$")
                .containsPattern("(?m)^q03,[0-9.]+,[0-9.]+,[0-9.]+,ok$")
                .containsPattern("(?m)^geometric_mean,,,[0-9.]+,3 queries$")
                .containsPattern("(?m)^worst,,,[0-9.]+,q(16|03|42)$");
    }

    @Test
    void withoutAQueryFolderTheErrorSaysWhereTheTextsAre() {
        final Cli.Result r = Cli.run("query-bench", "--benchmark", "tpcds", "--store", storeDir.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("--benchmark tpcds needs --queries-dir DIR",
                "extension/tpcds/dsdgen/queries/ of github.com/duckdb/duckdb",
                "sql/core/src/test/resources/tpcds/ of github.com/apache/spark");
        final Cli.Result bench = Cli.run("bench", "--benchmark", "tpcds", "--sf", "0.01");
        assertThat(bench.exitCode()).isEqualTo(1);
        assertThat(bench.err()).contains("--benchmark tpcds needs --queries-dir <dir>");
    }

    @Test
    void anUnknownQueryNamesTheFoldersQueries() {
        final Cli.Result r = Cli.run("query-bench", "--benchmark", "tpcds", "--queries-dir", queries.toString(),
                "--store", storeDir.toString(), "--queries", "q3,q4");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("unknown TPC-DS query 'q4' in --queries: " + queries + " holds q03,q16,q42");
    }

    @Test
    void benchGeneratesTheTablesItLacksAndChecksEachAnswerAgainstDuckDb() {
        final Path data = dir.resolve("bench-data");
        final Path out = dir.resolve("bench-out");
        final Cli.Result r = Cli.run("bench", "--benchmark", "tpcds", "--queries-dir", queries.toString(),
                "--queries", "q3", "--sf", "0.01", "--topologies", "1x2", "--strategies", "auto", "--runs", "1",
                "--warmup", "0", "--vs-duckdb", "--data", data.toString(), "--out", out.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("generating [");
        assertThat(Store.open(data).tableNames()).containsExactlyInAnyOrder("date_dim", "store_sales", "item");
        assertThat(out.resolve("results.csv")).content().contains("q03");
    }
}
