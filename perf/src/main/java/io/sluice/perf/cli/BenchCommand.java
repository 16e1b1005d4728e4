package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.bench.BenchCharts;
import io.sluice.perf.bench.BenchCsv;
import io.sluice.perf.bench.BenchData;
import io.sluice.perf.bench.BenchProgress;
import io.sluice.perf.bench.BenchReport;
import io.sluice.perf.bench.BenchRunner;
import io.sluice.perf.bench.BenchSpec;
import io.sluice.perf.bench.BenchSummary;
import io.sluice.perf.bench.CellResult;
import io.sluice.perf.bench.TpcdsTextQuery;
import io.sluice.perf.text.Plural;
import io.sluice.perf.tpcds.TpcdsLoader;
import io.sluice.perf.tpcds.TpcdsQueryFolder;
import io.sluice.perf.tpcds.TpcdsTable;
import io.sluice.perf.tpch.TpchSkew;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.StoreLock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice bench}: every (query, topology, strategy) on one embedded cluster whose shape
 * changes between topologies, optionally DuckDB beside it on the same rows, every answer checked;
 * writes results.csv, results.json, summary.md and PNG charts. All input is checked before the
 * data is generated or any query runs.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmarks TPC-H queries and workloads (or, with --benchmark tpcds, the TPC-DS query texts of"
            + " --queries-dir) on an embedded cluster of CNs (batches between CNs"
            + " go through Aeron) under each strategy and cluster shape, optionally next to DuckDB on the same rows,"
            + " and writes results.csv, results.json, summary.md and PNG charts.",
            "The queries: q1..q22, each from its standard SQL text (the text DuckDB runs), handed to Sluice's SQL"
                + " planner on every run inside the timed run, as DuckDB's planning is (the planner keeps the plans of"
                + " texts it planned; -Dsluice.sql.planCache=0 plans every run anew); the hand-written Java"
                + " plans of some of them are not timed (they remain the plan builder's examples and tests). Then the"
                + " workloads join_lo, join_lp and grp_orderkey, from their Java plans.",
            "Generates the TPC-H data when --data lacks it. Every answer is checked against DuckDB's (or, without"
                + " --vs-duckdb, against the query's first answer); a difference is reported on stderr, marked in"
                + " summary.md and makes the exit code 1."},
        footer = {"", "Examples:", "  sluice bench --vs-duckdb",
            "  sluice bench --sf 1 --queries q4,q18,join_lo --topologies 1x2,3x2,5x2",
            "  sluice bench --strategies colocate,shuffle-hash --runs 3 --out /tmp/bench",
            "  sluice bench --queries q3,q5 --strategies auto --runtime-filters off,global",
            "  sluice bench --sf 1 --queries join_lo,grp_orderkey --topologies 3x2 --cluster embedded,processes",
            "  sluice bench --benchmark tpcds --queries-dir tpcds-queries --sf 1 --topologies 3x2 --strategies auto"
                + " --vs-duckdb"})
public final class BenchCommand extends CliCommand {
    @picocli.CommandLine.Mixin
    RuntimeFilterOptions runtimeFilters;

    @Option(names = "--sf", paramLabel = "<scale>", defaultValue = "0.1", converter = ScaleFactorConverter.class,
            description = "TPC-H scale factor (default: ${DEFAULT-VALUE}).")
    double scaleFactor;

    @Option(names = "--queries", paramLabel = "<q1,q2>", split = ",", defaultValue = BenchSpec.DEFAULT_QUERIES,
            description = "Queries (q1..q22) and workloads (join_lo, join_lp, grp_orderkey), e.g."
                + " q4,q18,join_lo,grp_orderkey, or all (default: ${DEFAULT-VALUE}).")
    List<String> queries;

    @Option(names = "--benchmark", paramLabel = "<name>", defaultValue = "tpch", converter = BenchmarkConverter.class,
            description = "tpch, or tpcds: the TPC-DS query texts of --queries-dir (--queries q1..q99 as the folder"
                + " names them, or all) over the 24 TPC-DS tables, generated into --data (default data/tpcds-sf<scale>)"
                + " when missing (default: ${DEFAULT-VALUE}).")
    GenCommand.Benchmark benchmark;

    @Option(names = "--queries-dir", paramLabel = "<dir>",
            description = "With --benchmark tpcds: " + TpcdsQueryFolder.WHERE + ". Sluice runs each text as it is;"
                + " DuckDB the same text with `backquoted` names double-quoted.")
    Path queriesDir;

    @Option(names = "--topologies", paramLabel = "<CxK,...>", split = ",",
            defaultValue = BenchSpec.DEFAULT_TOPOLOGIES,
            description = "Cluster shapes, CNs x cores per CN (default: ${DEFAULT-VALUE}).")
    List<String> topologies;

    @Option(names = "--strategies", paramLabel = "<s1,s2>", split = ",", defaultValue = BenchSpec.DEFAULT_STRATEGIES,
            description = "auto, broadcast, shuffle-hash, shuffle-range, colocate, hybrid, or all"
                + " (default: ${DEFAULT-VALUE}).")
    List<String> strategies;

    @Option(names = "--runs", paramLabel = "<n>", defaultValue = "5",
            description = "Timed runs per cell (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", paramLabel = "<n>", defaultValue = "1",
            description = "Untimed runs per cell before the timed ones (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--vs-duckdb", description = "Also run each query in DuckDB (JDBC, in memory, threads = the"
            + " topology's CNs x cores) on the same rows, timed the same way, and check every answer against it.")
    boolean vsDuckDb;

    @Option(names = "--network", paramLabel = "<ipc|udp>", defaultValue = "ipc",
            description = "How the CNs reach each other: ipc (one Aeron media driver) or udp (a driver per CN, UDP on"
                + " loopback) (default: ${DEFAULT-VALUE}).")
    String network;

    @Option(names = "--cluster", paramLabel = "<kind,...>", split = ",", defaultValue = "embedded",
            description = "Where the CNs run: embedded (threads of this JVM, over --network), processes (a"
                + " coordinator here and one sluice cn JVM per CN with its own media driver, UDP on loopback), or"
                + " embedded,processes to measure both side by side (default: ${DEFAULT-VALUE}).")
    List<String> clusters;

    @Option(names = "--data", paramLabel = "<dir>",
            description = "TPC-H store to use, generated there when missing (default: data/sf<scale>, or"
                + " data/sf<scale>-skew<z> with --skew).")
    Path data;

    @Option(names = "--skew", paramLabel = "<z>", converter = SkewConverter.class,
            description = "Benchmark skewed TPC-H: o_custkey and l_partkey drawn from a Zipf(z) distribution, as"
                + " sluice gen --skew writes it (default: uniform). The report's bucket max/mean column shows how"
                + " full the fullest bucket of each query's least balanced shuffle is.")
    TpchSkew skew;

    @Option(names = "--out", paramLabel = "<dir>", defaultValue = "target/bench",
            description = "Directory for the reports; files of the same names are replaced"
                + " (default: ${DEFAULT-VALUE}).")
    Path out;

    @Override
    int execute(final PrintWriter stdout, final PrintWriter err) throws IOException {
        final long start = System.nanoTime();
        final String startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        final boolean tpcds = benchmark == GenCommand.Benchmark.TPCDS;
        final BenchSpec spec = new BenchSpec(scaleFactor, queries(),
                BenchSpec.topologies(topologies), BenchSpec.strategies(strategies), runs, warmup, vsDuckDb,
                Session.Network.parse(network), BenchSpec.clusters(clusters), runtimeFilters.modes());
        checkOutput(out);
        final Path dataDir = data == null ? (tpcds ? tpcdsDir(scaleFactor) : BenchData.defaultDir(scaleFactor, skew))
                : data;
        if (tpcds) {
            generateTpcds(dataDir, spec.tables(), err);
        } else if (!BenchData.missing(dataDir, scaleFactor, skew, spec.tables()).isEmpty()) {
            final Store writing = Store.create(dataDir);
            try (StoreLock ignored = lock(writing, err)) {
                // Another writer may have added some of them before this one got the lock.
                generate(writing, BenchData.missing(dataDir, scaleFactor, skew, spec.tables()), scaleFactor, skew,
                        err);
            }
        }
        final Store store = Store.open(dataDir);
        err.printf(Locale.ROOT, "bench: %s (%s x %s x %s), %s + %s each%s, data %s%n",
                Plural.of(spec.cellCount(), "cell"), Plural.of(spec.queries().size(), "query"),
                Plural.of(spec.topologies().size(), "topology"), Plural.of(spec.strategies().size(), "strategy"),
                Plural.of(runs, "run"), Plural.of(warmup, "warm-up"), vsDuckDb ? ", DuckDB beside" : "", dataDir);
        err.flush();
        final BenchProgress progress = new BenchProgress(err, System.console() != null, System::nanoTime,
                BenchRunner.totalRuns(spec));
        final List<CellResult> cells;
        try {
            cells = new BenchRunner(store, spec, progress, runtimeFilters.applyWait(StrategyConfig.defaults())).run();
        } finally {
            progress.close();
        }
        final BenchReport report = new BenchReport(spec, cells, startedAt, machine(),
                (System.nanoTime() - start) / 1e9, PeakMemory.describe());
        Files.writeString(out.resolve("results.csv"), BenchCsv.of(report));
        Files.writeString(out.resolve("results.json"), BenchJson.of(report));
        Files.writeString(out.resolve("summary.md"), BenchSummary.of(report));
        final List<Path> charts = BenchCharts.write(report, out);
        stdout.print(BenchSummary.overview(report));
        stdout.printf(Locale.ROOT, "wrote results.csv, results.json, summary.md and %d charts to %s in %.1f s%n",
                charts.size(), out, (System.nanoTime() - start) / 1e9);
        final List<CellResult> failures = report.failures();
        if (!failures.isEmpty()) {
            return fail(err, failures.size() + " of " + cells.size() + " cells gave answers that differ from "
                    + (vsDuckDb ? "DuckDB's" : "the query's first answer") + " or failed (first: "
                    + failures.get(0).label() + ": " + failures.get(0).answer() + " " + failures.get(0).detail()
                    + "); see " + out.resolve("summary.md"));
        }
        return 0;
    }

    /** The queries of the benchmark, checked before any data is generated. */
    private List<io.sluice.perf.tpch.Query> queries() {
        if (benchmark == GenCommand.Benchmark.TPCH) {
            if (queriesDir != null) {
                throw new IllegalArgumentException("--queries-dir is for --benchmark tpcds: the TPC-H texts are"
                        + " Sluice's own; leave it out, or add --benchmark tpcds");
            }
            return BenchSpec.queries(queries);
        }
        if (queriesDir == null) {
            throw new IllegalArgumentException("--benchmark tpcds needs --queries-dir <dir>, " + TpcdsQueryFolder.WHERE
                    + "; Sluice does not ship them");
        }
        if (skew != null) {
            throw new IllegalArgumentException("--skew rewrites TPC-H's foreign keys: it does not apply to --benchmark"
                    + " tpcds; leave it out");
        }
        TpcdsLoader.checkScaleFactor(scaleFactor);
        return TpcdsTextQuery.load(queriesDir, queries);
    }

    /** The default TPC-DS store of a scale factor: {@code data/tpcds-sf0.1}, as sluice gen --benchmark tpcds names it. */
    private static Path tpcdsDir(final double scaleFactor) {
        return Path.of("data", "tpcds-sf" + TpcdsLoader.format(scaleFactor));
    }

    /** Generates the TPC-DS tables the queries read that the store lacks; refuses tables of another scale. */
    private void generateTpcds(final Path dir, final List<String> tables, final PrintWriter err) {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--data " + dir + " exists and is not a directory: choose a directory"
                    + " for the TPC-DS store");
        }
        final Store writing = Files.isDirectory(dir) ? Store.open(dir) : Store.create(dir);
        final Map<String, String> other = TpcdsLoader.otherScales(writing, scaleFactor, Set.of());
        other.keySet().retainAll(tables);
        if (!other.isEmpty()) {
            throw new IllegalArgumentException("--data " + dir + " holds TPC-DS tables of another scale " + other
                    + ", not SF " + TpcdsLoader.format(scaleFactor) + ": point --data at another directory (the default"
                    + " is " + tpcdsDir(scaleFactor) + ")");
        }
        final List<TpcdsTable> missing = new ArrayList<>();
        for (final String name : tables) {
            if (!writing.hasTable(name)) {
                missing.add(TpcdsTable.byName(name));
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        try (StoreLock ignored = lock(writing, err)) {
            final List<TableGeneration.Job> jobs = new ArrayList<>();
            for (final TableGeneration.Job job : TableGeneration.tpcds(missing, scaleFactor)) {
                // Another writer may have added some of them before this one got the lock.
                if (!writing.hasTable(job.name())) {
                    jobs.add(job);
                }
            }
            if (jobs.isEmpty()) {
                return;
            }
            final String[] names = new String[jobs.size()];
            final long[] expected = new long[jobs.size()];
            for (int i = 0; i < names.length; i++) {
                names[i] = jobs.get(i).name();
                expected[i] = jobs.get(i).expectedRows();
            }
            err.println("generating " + List.of(names) + " into " + writing.dir());
            err.flush();
            final GenProgress progress = new GenProgress(err, System.console() != null, System::nanoTime, names,
                    expected);
            try {
                TableGeneration.run(writing, jobs, 2, false, () -> false, progress);
            } finally {
                progress.close();
            }
        }
    }

    /** Creates the output directory and proves it writable, before any long work. */
    private static void checkOutput(final Path dir) {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--out " + dir + " exists and is not a directory: choose a directory");
        }
        try {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, ".sluice-bench", ".probe"));
        } catch (final IOException | SecurityException e) {
            throw new IllegalArgumentException("--out " + dir + " is not a writable directory (" + e
                    + "): choose a directory you can write to");
        }
    }

    private static void generate(final Store store, final List<TpchTable> tables, final double scaleFactor,
                                 final TpchSkew skew, final PrintWriter err) {
        if (tables.isEmpty()) {
            return;
        }
        final List<TpchTable> order = TableGeneration.largestFirst(tables, scaleFactor);
        final String[] names = new String[order.size()];
        final long[] expected = new long[order.size()];
        final List<String> listed = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            names[i] = order.get(i).tableName();
            expected[i] = order.get(i).expectedRows(scaleFactor);
            listed.add(names[i]);
        }
        err.println("generating " + listed + " into " + store.dir());
        err.flush();
        final GenProgress progress = new GenProgress(err, System.console() != null, System::nanoTime, names, expected);
        try {
            TableGeneration.run(store, order, scaleFactor, 2, false, skew, () -> false, progress);
        } finally {
            progress.close();
        }
    }

    private static String machine() {
        return String.format(Locale.ROOT, "%d processors, Java %s, max heap %s",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                Sizes.mib(Runtime.getRuntime().maxMemory()));
    }
}
