package io.sluice.perf.jmh;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.bench.HeapSampler;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * A distributed ORDER BY of a large result, {@code SELECT * FROM lineitem ORDER BY l_extendedprice
 * DESC, l_orderkey, l_linenumber}, on an embedded cluster of 3 CNs x 2 cores over a stored TPC-H
 * (default {@code data/sf0.1}, {@code -p store=DIR}), one run per invocation, timed from the call to
 * the result gathered on the coordinator: {@code merge=true} sorts on every core and merges the
 * sorted runs on the coordinator (MERGE SORT), {@code merge=false} gathers every row and sorts it
 * there ({@link StrategyConfig#withMergeSort}); {@code limit=0} is the whole result, else a top-N.
 * The peak heap above the baseline of each run ({@link HeapSampler}: the whole JVM, every CN of the
 * embedded cluster) is printed at the end of the trial, median and highest.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 7)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
        "-Xms3g", "-Xmx3g"})
public class MergeSortBenchmark {
    private static final String[] LINEITEM = {"l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity",
        "l_extendedprice", "l_discount", "l_tax", "l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate",
        "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment"};

    /** Where the TPC-H store lies ({@code sluice gen --sf 0.1 --out data/sf0.1}). */
    @Param("data/sf0.1")
    String store;

    /** MERGE SORT (true) or gather-and-sort (false). */
    @Param({"true", "false"})
    boolean merge;

    /** 0: every row; else a top-N. */
    @Param({"0", "100"})
    long limit;

    private Session session;
    private Plan plan;
    private StrategyConfig config;
    private HeapSampler sampler;
    private final List<Long> peaks = new ArrayList<>();

    @Setup(Level.Trial)
    public void start() {
        final Path dir = Path.of(store);
        if (!Files.isDirectory(dir.resolve("lineitem"))) {
            throw new IllegalStateException("no TPC-H lineitem under " + dir.toAbsolutePath()
                    + ": generate it with `sluice gen --sf 0.1 --out " + dir + "` or pass -p store=DIR");
        }
        session = new Session(Store.open(dir), new Topology(3, 2));
        final Plan sorted = Plan.scan("lineitem", LINEITEM).orderBy(SortKey.desc("l_extendedprice"),
                SortKey.asc("l_orderkey"), SortKey.asc("l_linenumber"));
        plan = limit == 0 ? sorted : sorted.limit(limit);
        config = StrategyConfig.defaults().withMergeSort(merge);
    }

    @Setup(Level.Invocation)
    public void sample() {
        sampler = HeapSampler.start();
    }

    @TearDown(Level.Invocation)
    public void peak() {
        peaks.add(sampler.stop().aboveBaselineBytes());
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        session.close();
        final List<Long> measured = new ArrayList<>(peaks.subList(Math.min(3, peaks.size()), peaks.size()));
        Collections.sort(measured);
        if (!measured.isEmpty()) {
            System.out.printf(Locale.ROOT, "%npeak heap above baseline, merge=%s limit=%d: median %.0f MiB, max %.0f MiB"
                            + " over %d runs%n", merge, limit, measured.get(measured.size() / 2) / 1048576.0,
                    measured.get(measured.size() - 1) / 1048576.0, measured.size());
        }
    }

    @Benchmark
    public int orderBy() {
        return session.execute("order by", plan, config).result().rowCount();
    }
}
