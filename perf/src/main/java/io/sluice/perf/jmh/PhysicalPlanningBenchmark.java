package io.sluice.perf.jmh;

import io.sluice.engine.plan.DecidedPlan;
import io.sluice.engine.plan.PhysicalPlanner;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PlanCodec;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.shuffle.Topology;
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
 * What deciding a TPC-H query costs the coordinator once per query: {@link PhysicalPlanner#plan} for 3 CNs x 2
 * cores ({@link #decide}), and that plus shipping the decided plan and a CN decoding it ({@link #decideAndShip}).
 * The SQL is planned once in setup ({@link SqlPlanningBenchmark} times that). Run:
 * {@code java -cp perf/target/sluice.jar org.openjdk.jmh.Main PhysicalPlanning}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public class PhysicalPlanningBenchmark {
    private static final Topology TOPOLOGY = new Topology(3, 2);

    /** Store directory holding (or to receive) the TPC-H tables. */
    @Param("data/sf0.1")
    public String store;

    /** Scale factor to generate at when the store lacks a table. */
    @Param("0.1")
    public double scaleFactor;

    /** The TPC-H query number. */
    @Param({"1", "3", "5", "9", "18"})
    public int query;

    private StoreCatalog catalog;
    private Plan plan;
    private final StrategyConfig config = StrategyConfig.defaults();

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
        plan = new SqlPlanner(catalog, s.tableNames(), 0).plan(TpchSql.text(query)).plan();
    }

    @TearDown
    public void close() {
        catalog.close();
    }

    @Benchmark
    public DecidedPlan decide() {
        return PhysicalPlanner.plan(plan, config, catalog, TOPOLOGY, true);
    }

    @Benchmark
    public DecidedPlan decideAndShip() {
        return PlanCodec.decodeDecided(PlanCodec.encodeDecided(PhysicalPlanner.plan(plan, config, catalog, TOPOLOGY,
                true)));
    }
}
