package io.sluice.perf.cli;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.bench.AnswerCheck;
import io.sluice.perf.bench.BenchSpec;
import io.sluice.perf.bench.HeapSampler;
import io.sluice.perf.bench.JitQuiet;
import io.sluice.perf.bench.ReferenceAnswer;
import io.sluice.perf.bench.TextQuery;
import io.sluice.perf.bench.Timings;
import io.sluice.perf.bench.TpcdsTextQuery;
import io.sluice.perf.bench.TpchTextQuery;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.text.Plural;
import io.sluice.perf.tpcds.TpcdsQueryFolder;
import io.sluice.perf.tpch.Query;
import io.sluice.sql.SqlPlanner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice query-bench}: runs the 22 TPC-H queries from their SQL text ({@link TpchTextQuery}, planned
 * inside every timed run, by a planner that keeps the plans of texts it planned before) and the workloads in Sluice and in DuckDB (same rows,
 * loaded with {@link DuckDbLoader}; DuckDB limited to the same number of threads) in one process,
 * and prints each query's median times with their spread (the fastest and the slowest run) and their
 * ratio, the geometric mean of the ratios, and Q18's peak heap. With warm-up on, every query first runs
 * once in each engine, untimed, before any is timed (the JVM's warm-up: what the queries share is
 * compiled before the first timed run, not during it), then each query's own warm-up runs; the two
 * engines take turns going first in the timed runs. Each query's last answer is checked against DuckDB's; a difference or a
 * failure is reported, the query left out of the mean, and the exit code is 1. A benchmark, not a test: the numbers depend on the machine.
 */
@Command(name = "query-bench", mixinStandardHelpOptions = true,
        description = {"Times the 22 TPC-H queries and the workloads (or, with --benchmark tpcds, the TPC-DS query"
            + " texts of --queries-dir) in Sluice and in DuckDB over the same rows and"
            + " prints median times with the fastest and slowest run, Sluice/DuckDB ratios, their geometric mean, the"
            + " worst ratio and (TPC-H) Q18's peak heap. Every answer is"
            + " checked against DuckDB's: a difference or a failure is reported on stderr and makes the exit code 1.",
            "Every TPC-H query runs from its standard SQL text, the text DuckDB runs: Sluice hands it to its SQL"
                + " planner on every run, and that is part of the time, as DuckDB's planning is. The planner keeps the"
                + " plans of texts it planned before, so the warm-up runs plan a query and the timed runs find its plan;"
                + " with -Dsluice.sql.planCache=0 (SLUICE_JAVA_OPTS for bin/sluice) every run plans anew. The"
                + " hand-written Java plans of q1, q3, ... are not timed (they remain the plan builder's examples and"
                + " tests).",
            "With --warmup above 0, every query first runs once in each engine, untimed, before any is timed (the"
                + " JVM compiles what the queries share before the first timed run), then each query --warmup times in"
                + " each engine; in the timed runs the two engines take turns going first."})
public final class QueryBenchCommand extends CliCommand {
    @Option(names = "--store", paramLabel = "DIR", description = "Store directory (sluice gen).")
    Path store;

    @Option(names = "--parquet", paramLabel = "DIR", description = "Instead of --store: a folder of TPC-H Parquet"
            + " files (NAME.parquet or NAME/ folders; see docs/parquet.md), which Sluice and DuckDB (read_parquet)"
            + " both read as they are, nothing loaded.")
    Path parquet;

    @Mixin
    IcebergOptions iceberg;

    @Option(names = "--cores", paramLabel = "K", defaultValue = "2",
            description = "Sluice worker threads and DuckDB threads (default: ${DEFAULT-VALUE}).")
    int cores;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
            description = "Timed runs per query and engine; the median is reported (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "2",
            description = "Untimed runs per query and engine before its timed runs, after one untimed run of every"
                + " query when above 0 (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--strategy", paramLabel = "S", defaultValue = "auto", converter = StrategyConverter.class,
            description = "Sluice's join and group-by strategy (default: ${DEFAULT-VALUE}).")
    Strategy strategy;

    @Option(names = "--queries", paramLabel = "NAMES", split = ",",
            description = "Only these queries: q1..q22 and the workloads join_lo, join_lp, grp_orderkey, e.g."
                + " q1,q18,join_lo; with --benchmark tpcds q1..q99 as the folder names them, e.g. q3,q14a,q98"
                + " (default: all).")
    List<String> only;

    @Option(names = "--benchmark", paramLabel = "NAME", defaultValue = "tpch", converter = BenchmarkConverter.class,
            description = "tpch, or tpcds: the TPC-DS query texts of --queries-dir over a store of sluice gen"
                + " --benchmark tpcds (default: ${DEFAULT-VALUE}).")
    GenCommand.Benchmark benchmark;

    @Option(names = "--queries-dir", paramLabel = "DIR",
            description = "With --benchmark tpcds: " + TpcdsQueryFolder.WHERE + ". Sluice runs each text as it is;"
                + " DuckDB the same text with `backquoted` names double-quoted.")
    Path queriesDir;

    @Option(names = "--out", paramLabel = "FILE",
            description = "Also write the results as CSV to FILE: one line per query (query, sluice_ms, duckdb_ms,"
                + " ratio, status), then the lines geometric_mean and worst (default: none).")
    Path resultFile;

    @Option(names = "--duckdb-file", paramLabel = "FILE",
            description = "Keep DuckDB's copy of the tables in this database file instead of in memory: the first run"
                + " loads it, later runs reuse every table loaded from the same table version of the store (a table"
                + " generated or imported again is loaded again). For SF 10 and above, where an in-memory copy"
                + " competes with the store for memory (default: in memory, loaded on every run).")
    Path duckDbFile;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        if (cores < 1 || runs < 1 || warmup < 0) {
            throw new IllegalArgumentException("--cores and --runs must be 1 or more and --warmup 0 or more, got "
                    + cores + ", " + runs + ", " + warmup);
        }
        final List<Query> named = queries();
        final Set<String> tables = new LinkedHashSet<>();
        for (final Query q : named) {
            tables.addAll(q.tables());
        }
        try (TableSource source = TableSource.open(store, parquet, iceberg);
             Connection duck = openDuckDb();
             QueryRunner runner = new QueryRunner(source.catalog(), cores,
                     StrategyConfig.defaults().withStrategy(strategy))) {
            final List<Query> queries = TpchTextQuery.bind(named, new SqlPlanner(source.catalog(), source.names()));
            final long loadStart = System.nanoTime();
            final List<String> loaded = source.isFiles()
                    ? ParquetViews.create(source.catalog(), new ArrayList<>(tables), duck)
                    : DuckDbLoader.loadChanged(source.store(), new ArrayList<>(tables), duck);
            final Set<String> kept = new LinkedHashSet<>(tables);
            kept.removeAll(loaded);
            err.printf(Locale.ROOT, "%s %s %s DuckDB in %.1f s%s%n", source.isFiles() ? "read" : "loaded", loaded,
                    source.isFiles() ? "as read_parquet views in" : "into", (System.nanoTime() - loadStart) / 1e9,
                    kept.isEmpty() ? "" : "; kept " + kept + " as " + duckDbFile + " holds them");
            err.flush();
            final Map<String, ReferenceAnswer> expected = new HashMap<>();
            final Map<String, String> warmUpFailures = new HashMap<>();
            if (warmup > 0) {
                err.println("warming up: every query once in each engine, untimed");
                err.flush();
                for (final Query q : queries) {
                    try {
                        expected.put(q.name(), ReferenceAnswer.fetch(duck, q.sql()));
                    } catch (final SQLException e) {
                        warmUpFailures.put(q.name(), duckDbFailure(e));
                        continue;
                    }
                    try {
                        runner.run(q.plan());
                    } catch (final RuntimeException e) {
                        warmUpFailures.put(q.name(), failure(e));
                    }
                }
            }
            out.printf(Locale.ROOT, "%-14s %10s %10s %7s %17s %17s  %s%n", "query", "sluice ms", "duckdb ms", "ratio",
                    "sluice min-max", "duckdb min-max",
                    "strategies (sluice, " + Plural.of(cores, "core") + ", strategy " + strategy + ")");
            double logSum = 0;
            int measured = 0;
            double worst = Double.NaN;
            String worstQuery = null;
            final StringBuilder csv = new StringBuilder("query,sluice_ms,duckdb_ms,ratio,status\n");
            String heap = "not run";
            final List<String> failures = new ArrayList<>();
            for (final Query q : queries) {
                String difference = warmUpFailures.get(q.name());
                if (difference == null && !expected.containsKey(q.name())) {
                    try {
                        expected.put(q.name(), ReferenceAnswer.fetch(duck, q.sql()));
                    } catch (final SQLException e) {
                        difference = duckDbFailure(e);
                    }
                }
                final double[] sluice = new double[runs];
                final double[] duckMs = new double[runs];
                List<Decision> decisions = List.of();
                final HeapSampler sampler = difference == null && q.name().equals("q18") ? HeapSampler.start() : null;
                try {
                    for (int i = 0; i < warmup && difference == null; i++) {
                        runner.run(q.plan());
                        ReferenceAnswer.fetch(duck, q.sql());
                    }
                    QueryResult last = null;
                    for (int i = 0; i < runs && difference == null; i++) {
                        // The engines take turns going first, so neither always runs in the other's wake.
                        if (i % 2 == 1) {
                            duckMs[i] = timeDuckDb(duck, q.sql());
                        }
                        JitQuiet.await();
                        final long t0 = System.nanoTime();
                        final QueryRunner.Execution execution = runner.execute(q.plan());
                        sluice[i] = (System.nanoTime() - t0) / 1e6;
                        if (i % 2 == 0) {
                            duckMs[i] = timeDuckDb(duck, q.sql());
                        }
                        decisions = execution.decisions();
                        last = execution.result();
                    }
                    if (difference == null) {
                        difference = AnswerCheck.difference(expected.get(q.name()), last, TextQuery.columnsOf(q, last));
                    }
                } catch (final RuntimeException e) {
                    difference = failure(e);
                } catch (final SQLException e) {
                    difference = duckDbFailure(e);
                } finally {
                    if (sampler != null) {
                        heap = describe(sampler.stop());
                    }
                }
                if (difference != null) {
                    failures.add(q.name());
                    csv.append(q.name()).append(",,,,").append(difference.startsWith("failed") ? "failed" : "differs")
                            .append('\n');
                    err.println("sluice query-bench: " + q.name() + " " + difference);
                    out.printf(Locale.ROOT, "%-14s %10s %10s %7s %17s %17s  %s%n", q.name(), "-", "-", "-", "-", "-",
                            "answer differs from DuckDB's or failed (see stderr)");
                    out.flush();
                    continue;
                }
                final double a = Timings.median(sluice);
                final double b = Timings.median(duckMs);
                logSum += Math.log(a / b);
                measured++;
                if (worstQuery == null || a / b > worst) {
                    worst = a / b;
                    worstQuery = q.name();
                }
                csv.append(String.format(Locale.ROOT, "%s,%.3f,%.3f,%.4f,ok%n", q.name(), a, b, a / b));
                out.printf(Locale.ROOT, "%-14s %10.1f %10.1f %7.2f %17s %17s  %s%n", q.name(), a, b, a / b,
                        spread(sluice), spread(duckMs), summary(decisions));
                out.flush();
            }
            final double geomean = measured == 0 ? Double.NaN : Math.exp(logSum / measured);
            out.printf(Locale.ROOT, "geometric mean of ratios: %.2f over %s%n", geomean, Plural.of(measured, "query"));
            if (worstQuery != null) {
                out.printf(Locale.ROOT, "worst ratio: %.2f (%s)%n", worst, worstQuery);
            }
            if (benchmark == GenCommand.Benchmark.TPCH) {
                out.println("q18 " + heap);
            }
            if (resultFile != null) {
                csv.append(String.format(Locale.ROOT, "geometric_mean,,,%.4f,%d queries%n", geomean, measured));
                csv.append(String.format(Locale.ROOT, "worst,,,%.4f,%s%n", worst, worstQuery == null ? "" : worstQuery));
                writeResult(csv.toString());
                out.println("wrote " + resultFile);
            }
            if (!failures.isEmpty()) {
                return fail(err, failures.size() + " of " + Plural.of(queries.size(), "query") + " gave answers that differ from"
                        + " DuckDB's or failed: " + String.join(", ", failures) + " (left out of the geometric mean)");
            }
        } catch (final SQLException e) {
            throw new IllegalStateException("DuckDB failed during the benchmark: " + e.getMessage(), e);
        }
        return 0;
    }

    /** The queries of the benchmark, checked before any data is loaded. */
    private List<Query> queries() {
        final List<String> names = only == null ? List.of("all") : only;
        if (benchmark == GenCommand.Benchmark.TPCH) {
            if (queriesDir != null) {
                throw new IllegalArgumentException("--queries-dir is for --benchmark tpcds: the TPC-H texts are"
                        + " Sluice's own; leave it out, or add --benchmark tpcds");
            }
            return BenchSpec.queries(names);
        }
        if (queriesDir == null) {
            throw new IllegalArgumentException("--benchmark tpcds needs --queries-dir DIR, " + TpcdsQueryFolder.WHERE
                    + "; Sluice does not ship them");
        }
        if (parquet != null) {
            throw new IllegalArgumentException("--benchmark tpcds reads a store: give --store DIR of sluice gen"
                    + " --benchmark tpcds, not --parquet");
        }
        return TpcdsTextQuery.load(queriesDir, names);
    }

    private void writeResult(final String csv) {
        try {
            final Path parent = resultFile.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(resultFile, csv);
        } catch (final IOException e) {
            throw new UncheckedIOException("--out " + resultFile + " cannot be written (" + e.getMessage()
                    + "): give a file in a directory you can write to", e);
        }
    }

    private Connection openDuckDb() throws SQLException {
        if (duckDbFile == null) {
            return DuckDbLoader.openInMemory(cores);
        }
        try {
            return DuckDbLoader.openFile(duckDbFile, cores);
        } catch (final SQLException e) {
            throw new IllegalArgumentException("--duckdb-file " + duckDbFile + " cannot be opened (another process may"
                    + " hold it; or give a new file): " + e.getMessage(), e);
        }
    }

    private static double timeDuckDb(final Connection duck, final String sql) throws SQLException {
        JitQuiet.await();
        final long t0 = System.nanoTime();
        ReferenceAnswer.fetch(duck, sql);
        return (System.nanoTime() - t0) / 1e6;
    }

    /** DuckDB refused or failed the text: there is no answer to compare with, so the query is left out. */
    private static String duckDbFailure(final SQLException e) {
        return "failed in DuckDB (no answer to compare with): " + e.getMessage();
    }

    private static String failure(final RuntimeException e) {
        return "failed: " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /** The fastest and the slowest of some runs, in milliseconds. */
    private static String spread(final double[] ms) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (final double m : ms) {
            min = Math.min(min, m);
            max = Math.max(max, m);
        }
        return String.format(Locale.ROOT, "%.1f-%.1f", min, max);
    }

    private static String describe(final HeapSampler.Peak peak) {
        return String.format(Locale.ROOT, "peak heap %s (baseline after GC %s, max heap %s; sampled every 1 ms)",
                Sizes.mib(peak.peakBytes()), Sizes.mib(peak.baselineBytes()),
                Sizes.mib(Runtime.getRuntime().maxMemory()));
    }

    private static String summary(final List<Decision> decisions) {
        final List<String> parts = new ArrayList<>();
        for (final Decision d : decisions) {
            parts.add(d.choice().name().toLowerCase(Locale.ROOT));
        }
        return String.join(",", parts);
    }
}
