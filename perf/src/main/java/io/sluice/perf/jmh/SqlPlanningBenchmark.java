package io.sluice.perf.jmh;

import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.sql.PlannedQuery;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Warm planning time of each TPC-H query from its SQL text: parse, validate, Calcite's rewrites,
 * Sluice's translation, join order and pruning, up to the {@code Plan} (not running it). The
 * planner is reused, so table statistics come from its cache after the first statement, as in a
 * session. The store is generated with {@link TpchLoader} at {@code scaleFactor} when it lacks a
 * table. Run: {@code java -cp perf/target/sluice.jar org.openjdk.jmh.Main SqlPlanning}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public class SqlPlanningBenchmark {
    /** Store directory holding (or to receive) the TPC-H tables. */
    @Param("data/sf0.1")
    public String store;

    /** Scale factor to generate at when the store lacks a table. */
    @Param("0.1")
    public double scaleFactor;

    /** The TPC-H query number. */
    @Param({"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19",
        "20", "21", "22"})
    public int query;

    private StoreCatalog catalog;
    private SqlPlanner planner;
    private String sql;

    @Setup
    public void open() throws Exception {
        final Path dir = Path.of(store);
        final Store s = Files.isDirectory(dir) ? Store.open(dir) : Store.create(dir);
        for (final TpchTable t : TpchTable.values()) {
            if (!s.hasTable(t.tableName())) {
                try (Table ignored = TpchLoader.load(s, t, scaleFactor, rows -> { })) {
                    // generated once, reopened by the catalog
                }
            }
        }
        catalog = new StoreCatalog(s);
        // No plan cache: every invocation plans the text anew, which is what this benchmark times.
        planner = new SqlPlanner(catalog, s.tableNames(), 0);
        sql = TpchSql.text(query);
        planner.plan(sql);
    }

    @TearDown
    public void close() {
        catalog.close();
    }

    @Benchmark
    public PlannedQuery plan() {
        return planner.plan(sql);
    }
}
