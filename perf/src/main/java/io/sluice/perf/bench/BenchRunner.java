package io.sluice.perf.bench;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.CnUsage;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.cluster.LocalCluster;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.text.Plural;
import io.sluice.perf.tpch.Query;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.transport.Endpoint;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.agrona.CloseHelper;

/**
 * Runs a {@link BenchSpec} on one {@link Session} per cluster kind (CNs in this JVM, or a
 * {@link LocalCluster} of CN processes) whose topology changes between shapes (nothing stored moves),
 * and, with DuckDB, the same queries in an in-memory DuckDB over the same rows with
 * as many threads as the topology has cores in all.
 *
 * <p>So that no engine or strategy carries the JVM's warm-up or always runs in another's wake:
 * before the first timed run every query runs once under every strategy (and in DuckDB), untimed;
 * then, per topology and query, the contestants (DuckDB and each cluster kind x strategy x runtime
 * filter mode) take turns: each round runs every contestant once, in an order that turns by one place from round to
 * round, warm-up rounds first. Each run is timed from the call to the materialized result, as
 * DuckDB's are from the SQL to the last cell read; a TPC-H query's run includes planning its text
 * ({@link TpchTextQuery}), as DuckDB's includes its own planning; CNs in this JVM start each timed run after a GC,
 * so that one run's garbage does not land on the next. Every answer, warm-up ones included, is
 * compared outside the timed region with DuckDB's (fetched once before the rounds; without DuckDB,
 * with the query's first answer); a difference is reported at once through the progress display
 * and marks the cell.
 */
public final class BenchRunner {
    private final Store store;
    private final BenchSpec spec;
    private final BenchProgress progress;
    private final StrategyConfig config;

    public BenchRunner(final Store store, final BenchSpec spec, final BenchProgress progress) {
        this(store, spec, progress, StrategyConfig.defaults());
    }

    /** A run whose cells use {@code config} (its runtime filters, thresholds) with each cell's strategy. */
    public BenchRunner(final Store store, final BenchSpec spec, final BenchProgress progress,
                       final StrategyConfig config) {
        this.store = store;
        this.spec = spec;
        this.progress = progress;
        this.config = config;
    }

    /** Every run the benchmark makes, for the progress display. */
    public static long totalRuns(final BenchSpec spec) {
        final long perCell = spec.runs() + spec.warmup();
        final long queries = spec.queries().size();
        final long duck = spec.vsDuckDb() ? queries * spec.topologies().size() * (perCell + 1) : 0;
        final long contestants = (long) spec.clusters().size() * spec.strategies().size()
                * spec.runtimeFilterModes().size() + (spec.vsDuckDb() ? 1 : 0);
        final long jvmWarmUp = spec.warmup() == 0 ? 0 : queries * contestants;
        return spec.cellCount() * perCell + duck + jvmWarmUp;
    }

    /**
     * Runs every cell; the results come ordered by query, then cluster, topology and strategy, as the spec
     * lists them.
     */
    public List<CellResult> run() {
        final List<CellResult> cells = new ArrayList<>();
        final Map<ClusterKind, Session> sessions = new EnumMap<>(ClusterKind.class);
        LocalCluster processes = null;
        try (StoreCatalog catalog = new StoreCatalog(store);
             Connection duck = spec.vsDuckDb() ? loadDuckDb() : null) {
            // One planner for the whole bench: it reads each table's zonemap statistics once, the text every run.
            final List<Query> queries = TpchTextQuery.bind(spec.queries(), new SqlPlanner(catalog, store.tableNames()));
            for (final ClusterKind kind : spec.clusters()) {
                if (kind == ClusterKind.EMBEDDED) {
                    sessions.put(kind, new Session(store, spec.topologies().get(0), spec.network()));
                } else {
                    processes = startProcesses();
                    sessions.put(kind, processes.connect());
                }
            }
            final Map<String, ReferenceAnswer> references = new HashMap<>();
            boolean warm = spec.warmup() == 0;
            for (final Topology topology : spec.topologies()) {
                for (final Session session : sessions.values()) {
                    session.topology(topology);
                }
                if (duck != null) {
                    try (Statement s = duck.createStatement()) {
                        s.execute("SET threads TO " + topology.bucketCount());
                    }
                }
                if (!warm) {
                    warmUp(queries, sessions, duck, topology);
                    warm = true;
                }
                for (final Query query : queries) {
                    cells.addAll(runQuery(sessions, duck, topology, query, references));
                }
            }
        } catch (final SQLException e) {
            throw new IllegalStateException("DuckDB failed during the benchmark: " + e.getMessage(), e);
        } finally {
            CloseHelper.quietCloseAll(sessions.values());
            CloseHelper.quietClose(processes);
        }
        cells.sort(Comparator.comparingInt((CellResult c) -> indexOfQuery(c.query()))
                .thenComparingInt(c -> spec.clusters().indexOf(c.cluster()))
                .thenComparingInt(c -> spec.topologies().indexOf(c.topology()))
                .thenComparingInt(c -> spec.strategies().indexOf(c.strategy()))
                .thenComparingInt(c -> spec.runtimeFilterModes().indexOf(c.runtimeFilters())));
        return cells;
    }

    /** Every query once under every strategy and in DuckDB, untimed and unchecked: the JIT's first pass. */
    private void warmUp(final List<Query> queries, final Map<ClusterKind, Session> sessions, final Connection duck,
                        final Topology topology) throws SQLException {
        progress.message("warming up: every query once under every strategy on " + topology + ", untimed");
        for (final Query query : queries) {
            if (duck != null) {
                progress.cell(query.name() + " " + topology + " duckdb (warm-up)");
                ReferenceAnswer.fetch(duck, query.sql());
                progress.run();
            }
            for (final Map.Entry<ClusterKind, Session> e : sessions.entrySet()) {
                for (final Strategy strategy : spec.strategies()) {
                    for (final RuntimeFilterMode mode : spec.runtimeFilterModes()) {
                        progress.cell(label(query, e.getKey(), topology, strategy, mode) + " (warm-up)");
                        try {
                            e.getValue().execute(query.name(), query.plan(), config(strategy, mode));
                        } catch (final RuntimeException failed) {
                            // The cell's own runs report it.
                        }
                        progress.run();
                    }
                }
            }
        }
    }

    /** The cells of one query on one topology, its contestants taking turns round by round. */
    private List<CellResult> runQuery(final Map<ClusterKind, Session> sessions, final Connection duck,
                                      final Topology topology, final Query query,
                                      final Map<String, ReferenceAnswer> references) throws SQLException {
        final List<CellRuns> contestants = new ArrayList<>();
        ReferenceAnswer expected = null;
        CellRuns duckRuns = null;
        if (duck != null) {
            final String label = query.name() + " " + topology + " duckdb";
            progress.cell(label + " (reference answer)");
            expected = ReferenceAnswer.fetch(duck, query.sql());
            progress.run();
            duckRuns = new CellRuns(null, null, null, null, label, spec.runs());
            contestants.add(duckRuns);
        }
        for (final Map.Entry<ClusterKind, Session> e : sessions.entrySet()) {
            for (final Strategy strategy : spec.strategies()) {
                for (final RuntimeFilterMode mode : spec.runtimeFilterModes()) {
                    contestants.add(new CellRuns(e.getKey(), e.getValue(), strategy, mode,
                            label(query, e.getKey(), topology, strategy, mode), spec.runs()));
                }
            }
        }
        final int n = contestants.size();
        for (int round = 0; round < spec.warmup() + spec.runs(); round++) {
            final boolean timed = round >= spec.warmup();
            for (int k = 0; k < n; k++) {
                final CellRuns c = contestants.get((k + round) % n);
                if (c.running()) {
                    progress.cell(c.label);
                    if (c.isDuckDb()) {
                        final long start = System.nanoTime();
                        ReferenceAnswer.fetch(duck, query.sql());
                        if (timed) {
                            c.timed(System.nanoTime() - start);
                        }
                    } else {
                        runSluice(c, query, timed, round, expected, references);
                    }
                }
                progress.run();
            }
        }
        final Timings duckTimings = duckRuns == null ? null : duckRuns.timings();
        final List<CellResult> cells = new ArrayList<>();
        for (final CellRuns c : contestants) {
            if (!c.isDuckDb()) {
                cells.add(result(c, query, topology, duckTimings));
            }
        }
        return cells;
    }

    private void runSluice(final CellRuns c, final Query query, final boolean timed, final int round,
                           final ReferenceAnswer expected, final Map<String, ReferenceAnswer> references) {
        final StrategyConfig cellConfig = config(c.strategy, c.mode);
        final HeapSampler sampler = timed && c.cluster == ClusterKind.EMBEDDED ? HeapSampler.start() : null;
        final Session.Execution execution;
        try {
            final long start = System.nanoTime();
            execution = c.session.execute(query.name(), query.plan(), cellConfig);
            if (timed) {
                c.timed(System.nanoTime() - start);
            }
        } catch (final RuntimeException e) {
            c.error = e.getClass().getSimpleName() + ": " + e.getMessage();
            progress.message("ERROR " + c.label + " (run " + (round + 1) + "): " + c.error);
            return;
        } finally {
            if (sampler != null) {
                c.heap(sampler.stop().aboveBaselineBytes());
            }
        }
        c.last = execution;
        final String difference = compare(query, execution.result(), expected, references);
        if (difference != null && c.mismatch == null) {
            c.mismatch = difference;
            progress.message("MISMATCH " + c.label + " (run " + (round + 1) + "): " + difference);
        }
    }

    private static CellResult result(final CellRuns c, final Query query, final Topology topology,
                                     final Timings duckTimings) {
        if (c.error != null) {
            return new CellResult(query.name(), c.cluster, topology, c.strategy, c.mode, null, duckTimings, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, -1, Double.NaN, "", CellResult.Answer.ERROR, c.error);
        }
        final QueryStats stats = c.last.stats();
        long cnRss = -1;
        for (final CnUsage u : c.last.usage()) {
            cnRss = Math.max(cnRss, u.rssBytes());
        }
        return new CellResult(query.name(), c.cluster, topology, c.strategy, c.mode, c.timings(), duckTimings,
                stats.rowsRemote(), stats.bytesRemote(), stats.rowsLocal(), stats.bytesLocal(),
                stats.wholeBlockRoutes(), stats.splitBatches(), stats.filterRowsIn(), stats.filterRowsRemoved(),
                stats.filterBlocksSkipped(),
                c.cluster == ClusterKind.EMBEDDED ? Math.max(0, c.peakHeapBytes) : -1, cnRss,
                bucketMaxOverMean(stats), decisions(c.last.decisions()),
                c.mismatch == null ? CellResult.Answer.OK : CellResult.Answer.MISMATCH,
                c.mismatch == null ? "" : c.mismatch);
    }

    /** The fullest bucket over the mean bucket in the least balanced TO_OWNER exchange; NaN when there is none. */
    static double bucketMaxOverMean(final QueryStats stats) {
        double worst = Double.NaN;
        for (final QueryStats.ExchangeStats e : stats.exchanges()) {
            if (!e.mode().equals("TO_OWNER")) {
                continue;
            }
            final double ratio = bucketMaxOverMean(e);
            if (!Double.isNaN(ratio)) {
                worst = Double.isNaN(worst) ? ratio : Math.max(worst, ratio);
            }
        }
        return worst;
    }

    /** The fullest bucket over the mean bucket of one exchange; NaN when it sent no rows to buckets. */
    static double bucketMaxOverMean(final QueryStats.ExchangeStats e) {
        long max = 0;
        long sum = 0;
        for (final long rows : e.bucketRows()) {
            max = Math.max(max, rows);
            sum += rows;
        }
        return sum == 0 ? Double.NaN : max / ((double) sum / e.bucketRows().length);
    }

    private String label(final Query query, final ClusterKind cluster, final Topology topology,
                         final Strategy strategy, final RuntimeFilterMode mode) {
        return CellResult.label(query.name(), cluster, topology, strategy)
                + (spec.comparesRuntimeFilters() ? " filters=" + mode.cliName() : "");
    }

    /** The configuration of one contestant's runs. */
    private StrategyConfig config(final Strategy strategy, final RuntimeFilterMode mode) {
        return config.withStrategy(strategy).withRuntimeFilters(mode);
    }

    /** A coordinator here and as many CN processes, with as many cores, as the largest topology asks for. */
    private LocalCluster startProcesses() {
        int cns = 1;
        int cores = 1;
        for (final Topology t : spec.topologies()) {
            cns = Math.max(cns, t.cnCount());
            cores = Math.max(cores, t.coresPerCn());
        }
        progress.message("starting " + Plural.of(cns, "CN process") + " of " + Plural.of(cores, "core"));
        return LocalCluster.start(store.dir(), cns, cores, new Endpoint("127.0.0.1", 0), List.of(),
                Session.defaultTransport(), line -> {
                    if (line.contains("exited with") || line.contains("error")) {
                        progress.message(line);
                    }
                });
    }

    private Connection loadDuckDb() throws SQLException {
        final long start = System.nanoTime();
        final Connection duck = DuckDbLoader.openInMemory(spec.topologies().get(0).bucketCount());
        try {
            DuckDbLoader.load(store, spec.tables(), duck);
        } catch (final SQLException | RuntimeException e) {
            duck.close();
            throw e;
        }
        progress.message(String.format(Locale.ROOT, "loaded %s into DuckDB in %.1f s", spec.tables(),
                (System.nanoTime() - start) / 1e9));
        return duck;
    }

    /** The first difference from the reference answer, or null. */
    private static String compare(final Query query, final QueryResult actual, final ReferenceAnswer expected,
                                  final Map<String, ReferenceAnswer> references) {
        if (expected != null) {
            return AnswerCheck.difference(expected, actual, TextQuery.columnsOf(query, actual));
        }
        final ReferenceAnswer reference = references.get(query.name());
        if (reference == null) {
            references.put(query.name(), ReferenceAnswer.of(actual));
            return null;
        }
        return AnswerCheck.difference(reference, actual);
    }

    private int indexOfQuery(final String name) {
        for (int i = 0; i < spec.queries().size(); i++) {
            if (spec.queries().get(i).name().equals(name)) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    private static String decisions(final List<Decision> decisions) {
        final List<String> parts = new ArrayList<>();
        for (final Decision d : decisions) {
            parts.add(d.choice().name().toLowerCase(Locale.ROOT));
        }
        return String.join(",", parts);
    }
}
