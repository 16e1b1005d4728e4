package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice query-bench} over SF 0.01: TPC-H queries run from their text (q2 has no Java plan, q4
 * has one that is not what is timed) next to a workload, each answer checked against DuckDB's, one
 * line per query in the order asked, with each engine's spread, after a warm-up of every query; an unknown
 * name lists the known ones. Nothing depends on the times.
 */
class QueryBenchCommandTest {
    private static final List<String> QUERIES = List.of("q4", "join_lo", "q2");

    @TempDir
    static Path dir;

    private static Path storeDir;

    @BeforeAll
    static void generate() {
        storeDir = dir.resolve("store");
        final Store store = Store.create(storeDir);
        final Set<String> tables = new LinkedHashSet<>(TpchSql.tables(2));
        tables.addAll(TpchSql.tables(4));
        for (final String t : tables) {
            TpchLoader.load(store, TpchTable.of(t), 0.01, rows -> { }).close();
        }
    }

    @Test
    void everyQueryNamedRunsFromItsTextWithItsAnswerCheckedAndOneLineEach() {
        final Cli.Result r = Cli.run("query-bench", "--store", storeDir.toString(), "--queries",
                String.join(",", QUERIES), "--runs", "2", "--warmup", "1", "--cores", "2");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        final List<String> rows = r.out().lines().filter(l -> l.matches("^\\S+ +[0-9.]+ +[0-9.]+ .*")).toList();
        assertThat(rows).as(r.out()).hasSize(QUERIES.size());
        for (int i = 0; i < QUERIES.size(); i++) {
            // median Sluice and DuckDB ms, ratio, then each engine's fastest-slowest run
            assertThat(rows.get(i)).as(r.out())
                    .matches(QUERIES.get(i) + " +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+-[0-9.]+ +[0-9.]+-[0-9.]+ .*");
        }
        assertThat(r.out()).contains("geometric mean of ratios: ", "over 3 queries", "q18 not run");
        assertThat(r.err()).contains("warming up: every query once in each engine").doesNotContain("differ", "failed");
    }

    @Test
    void aDuckDbFileIsLoadedOnceAndReusedByTheNextRun() {
        final String file = dir.resolve("duck.db").toString();
        final String[] args = {"query-bench", "--store", storeDir.toString(), "--queries", "q4", "--runs", "1",
            "--warmup", "0", "--cores", "1", "--duckdb-file", file};
        final Cli.Result first = Cli.run(args);
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.err()).contains("loaded [orders, lineitem] into DuckDB");
        final Cli.Result second = Cli.run(args);
        assertThat(second.exitCode()).as(second.toString()).isZero();
        assertThat(second.err()).contains("loaded [] into DuckDB", "kept [orders, lineitem] as " + file + " holds them")
                .doesNotContain("differ", "failed");
        assertThat(second.out()).containsPattern("(?m)^q4 +[0-9.]+ +[0-9.]+ ");
    }

    @Test
    void anUnknownQueryNamesTheKnownOnes() {
        final Cli.Result r = Cli.run("query-bench", "--store", storeDir.toString(), "--queries", "q4,q23");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).startsWith("sluice query-bench: error: unknown query 'q23' in --queries:")
                .contains("q1,q2,q3,", "q22,", "join_lo");
    }
}
