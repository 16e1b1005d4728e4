package io.sluice.perf.cli;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.perf.cluster.JavaProcess;
import io.sluice.storage.BlockFileCache;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries over a table that {@code sluice gen --force} replaces from another process: each gives the
 * answer of the version it started on, or fails saying the table was replaced; it never reads blocks
 * of both versions.
 */
class ReplacedTableQueryTest {
    private static final String REPLACED = "table 'lineitem' was replaced while it was being read";
    /** Reads every block of lineitem (SF 0.01: 8 blocks); nothing is pruned. */
    private static final Plan PLAN = Plan.scan("lineitem", "l_orderkey", "l_quantity")
            .aggregate(Plan.noKeys(), Plan.count("rows"), Plan.sum(col("l_orderkey"), "keys"),
                    Plan.sum(col("l_quantity"), "quantity"));

    @TempDir
    static Path dir;
    static Path store;
    static List<List<Object>> answer;

    @BeforeAll
    static void generate() {
        store = dir.resolve("sf0.01");
        final Cli.Result gen = Cli.run("gen", "--sf", "0.01", "--out", store.toString(), "--tables", "lineitem");
        assertThat(gen.exitCode()).as(gen.toString()).isZero();
        try (StoreCatalog catalog = new StoreCatalog(Store.open(store, new BlockFileCache(64)))) {
            answer = query(catalog);
        }
        assertThat(answer.get(0).get(0)).isEqualTo(60175L);
    }

    static List<List<Object>> query(final StoreCatalog catalog) {
        try (QueryRunner runner = new QueryRunner(catalog, 2)) {
            return runner.execute(PLAN).result().rows();
        }
    }

    /** The exception in a query failure's causes that says the table was replaced (failing when there is none). */
    static Throwable replacedCause(final Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (String.valueOf(cause.getMessage()).contains(REPLACED)) {
                return cause;
            }
        }
        throw new AssertionError("the query failed without saying the table was replaced", failure);
    }

    static void replaceLineitem() {
        try (JavaProcess gen = JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx1g")
                .args("gen", "--sf", "0.01", "--out", store.toString(), "--tables", "lineitem", "--force").start()) {
            assertThat(gen.awaitExit(Duration.ofSeconds(120))).as(gen.stderr().toString()).isZero();
        }
    }

    @Test
    void aQueryOnFilesStillOpenAnswersFromTheOldVersionAndOneThatMustReopenFailsClearly() {
        // Room for every block: after one query all of them stay open.
        try (StoreCatalog warm = new StoreCatalog(Store.open(store, new BlockFileCache(64)));
             StoreCatalog cold = new StoreCatalog(Store.open(store, new BlockFileCache(2)))) {
            assertThat(query(warm)).isEqualTo(answer);
            assertThat(query(cold)).isEqualTo(answer);
            replaceLineitem();
            assertThat(query(warm)).as("served by the old version's open files").isEqualTo(answer);
            assertThatThrownBy(() -> query(cold)).satisfies(e -> assertThat(replacedCause(e))
                    .hasMessageContaining("run the query again to read the new version"));
        }
        try (StoreCatalog fresh = new StoreCatalog(Store.open(store, new BlockFileCache(2)))) {
            assertThat(query(fresh)).isEqualTo(answer);
        }
    }

    @Test
    void queriesRacingAReplacementGiveTheAnswerOrTheReplacedError() throws Exception {
        final List<String> outcomes = new ArrayList<>();
        try (JavaProcess gen = JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx1g")
                .args("gen", "--sf", "0.01", "--out", store.toString(), "--tables", "lineitem", "--force").start()) {
            // Every outcome is checked, whichever the interleaving; there is no timing to hope for.
            do {
                try (StoreCatalog catalog = new StoreCatalog(Store.open(store, new BlockFileCache(1)))) {
                    assertThat(query(catalog)).isEqualTo(answer);
                    outcomes.add("answer");
                } catch (final RuntimeException e) {
                    assertThat(replacedCause(e)).as("a query that fails says why").isNotNull();
                    outcomes.add("replaced");
                }
            } while (gen.isAlive());
            assertThat(gen.awaitExit(Duration.ofSeconds(120))).isZero();
        }
        assertThat(outcomes).isNotEmpty();
    }
}
