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
import io.sluice.perf.tpch.Query;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
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
 * as many threads as the topology has cores in all. Each cell runs its warm-up runs, then its
 * timed runs, each timed from the call to the materialized result, as DuckDB's are from the SQL
 * to the last cell read. Every answer, warm-up ones included, is compared outside the timed
 * region with DuckDB's (or, without DuckDB, with the query's first answer); a difference is
 * reported at once through the progress display and marks the cell.
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
        final long duck = spec.vsDuckDb() ? (long) spec.queries().size() * spec.topologies().size() * perCell : 0;
        return spec.cellCount() * perCell + duck;
    }

    /**
     * Runs every cell; the results come ordered by query, then cluster, topology and strategy, as the spec
     * lists them.
     */
    public List<CellResult> run() {
        final List<CellResult> cells = new ArrayList<>();
        final Map<ClusterKind, Session> sessions = new EnumMap<>(ClusterKind.class);
        LocalCluster processes = null;
        try (Connection duck = spec.vsDuckDb() ? loadDuckDb() : null) {
            for (final ClusterKind kind : spec.clusters()) {
                if (kind == ClusterKind.EMBEDDED) {
                    sessions.put(kind, new Session(store, spec.topologies().get(0), spec.network()));
                } else {
                    processes = startProcesses();
                    sessions.put(kind, processes.connect());
                }
            }
            final Map<String, ReferenceAnswer> references = new HashMap<>();
            for (final Topology topology : spec.topologies()) {
                for (final Session session : sessions.values()) {
                    session.topology(topology);
                }
                if (duck != null) {
                    try (Statement s = duck.createStatement()) {
                        s.execute("SET threads TO " + topology.bucketCount());
                    }
                }
                for (final Query query : spec.queries()) {
                    ReferenceAnswer expected = null;
                    Timings duckTimings = null;
                    if (duck != null) {
                        progress.cell(query.name() + " " + topology + " duckdb");
                        final long[] nanos = new long[spec.runs()];
                        for (int i = 0; i < spec.warmup() + spec.runs(); i++) {
                            final long start = System.nanoTime();
                            expected = ReferenceAnswer.fetch(duck, query.sql());
                            final long elapsed = System.nanoTime() - start;
                            if (i >= spec.warmup()) {
                                nanos[i - spec.warmup()] = elapsed;
                            }
                            progress.run();
                        }
                        duckTimings = Timings.ofNanos(nanos);
                    }
                    for (final Map.Entry<ClusterKind, Session> e : sessions.entrySet()) {
                        for (final Strategy strategy : spec.strategies()) {
                            cells.addAll(runCells(e.getValue(), query, e.getKey(), topology, strategy, expected,
                                    duckTimings, references));
                        }
                    }
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

    /** A coordinator here and as many CN processes, with as many cores, as the largest topology asks for. */
    private LocalCluster startProcesses() {
        int cns = 1;
        int cores = 1;
        for (final Topology t : spec.topologies()) {
            cns = Math.max(cns, t.cnCount());
            cores = Math.max(cores, t.coresPerCn());
        }
        progress.message("starting " + cns + " CN processes of " + cores + " cores");
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

    /**
     * Runs one (query, topology, strategy) under every runtime filter mode of the spec: run by run, the modes take
     * turns (in the given order on even runs, reversed on odd ones), so that a change in the machine's load meets
     * every mode alike and their ratios come from the same minutes.
     */
    private List<CellResult> runCells(final Session session, final Query query, final ClusterKind cluster,
                                      final Topology topology, final Strategy strategy, final ReferenceAnswer expected,
                                      final Timings duckTimings, final Map<String, ReferenceAnswer> references) {
        final List<RuntimeFilterMode> modes = spec.runtimeFilterModes();
        final int m = modes.size();
        final String[] labels = new String[m];
        final StrategyConfig[] configs = new StrategyConfig[m];
        final long[][] nanos = new long[m][spec.runs()];
        final String[] mismatch = new String[m];
        final String[] error = new String[m];
        final Session.Execution[] last = new Session.Execution[m];
        for (int i = 0; i < m; i++) {
            labels[i] = query.name() + " " + topology + (cluster == ClusterKind.EMBEDDED ? "" : " "
                    + cluster.cliName()) + " " + strategy.cliName()
                    + (spec.comparesRuntimeFilters() ? " filters=" + modes.get(i).cliName() : "");
            configs[i] = config.withStrategy(strategy).withRuntimeFilters(modes.get(i));
        }
        progress.cell(String.join(" | ", labels));
        HeapSampler sampler = null;
        HeapSampler.Peak peak = null;
        try {
            for (int run = 0; run < spec.warmup() + spec.runs(); run++) {
                if (run == spec.warmup()) {
                    sampler = HeapSampler.start();
                }
                for (int turn = 0; turn < m; turn++) {
                    final int i = run % 2 == 0 ? turn : m - 1 - turn;
                    if (error[i] != null) {
                        progress.run();
                        continue;
                    }
                    try {
                        final long start = System.nanoTime();
                        last[i] = session.execute(query.name(), query.plan(), configs[i]);
                        final long elapsed = System.nanoTime() - start;
                        if (run >= spec.warmup()) {
                            nanos[i][run - spec.warmup()] = elapsed;
                        }
                    } catch (final RuntimeException e) {
                        error[i] = e.getClass().getSimpleName() + ": " + e.getMessage();
                        progress.message("ERROR " + labels[i] + " (run " + (run + 1) + "): " + error[i]);
                        progress.run();
                        continue;
                    }
                    progress.run();
                    final String difference = compare(query, last[i].result(), expected, references);
                    if (difference != null && mismatch[i] == null) {
                        mismatch[i] = difference;
                        progress.message("MISMATCH " + labels[i] + " (run " + (run + 1) + "): " + difference);
                    }
                }
            }
            peak = sampler == null ? null : sampler.stop();
            sampler = null;
        } finally {
            if (sampler != null) {
                sampler.stop();
            }
        }
        final List<CellResult> cells = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            cells.add(error[i] != null
                    ? new CellResult(query.name(), cluster, topology, strategy, modes.get(i), null, duckTimings, 0, 0,
                            0, 0, 0, 0, 0, 0, 0, 0, -1, "", CellResult.Answer.ERROR, error[i])
                    : cell(query, cluster, topology, strategy, modes.get(i), Timings.ofNanos(nanos[i]), duckTimings,
                            last[i], peak, mismatch[i]));
        }
        return cells;
    }

    private static CellResult cell(final Query query, final ClusterKind cluster, final Topology topology,
                                   final Strategy strategy, final RuntimeFilterMode mode, final Timings timings,
                                   final Timings duckTimings, final Session.Execution last, final HeapSampler.Peak peak,
                                   final String mismatch) {
        final QueryStats stats = last.stats();
        long cnRss = -1;
        for (final CnUsage u : last.usage()) {
            cnRss = Math.max(cnRss, u.rssBytes());
        }
        return new CellResult(query.name(), cluster, topology, strategy, mode, timings, duckTimings,
                stats.rowsRemote(), stats.bytesRemote(), stats.rowsLocal(), stats.bytesLocal(),
                stats.wholeBlockRoutes(), stats.splitBatches(), stats.filterRowsIn(), stats.filterRowsRemoved(),
                stats.filterBlocksSkipped(),
                cluster == ClusterKind.EMBEDDED && peak != null ? peak.aboveBaselineBytes() : -1, cnRss,
                decisions(last.decisions()), mismatch == null ? CellResult.Answer.OK : CellResult.Answer.MISMATCH,
                mismatch == null ? "" : mismatch);
    }
    /** The first difference from the reference answer, or null. */
    private static String compare(final Query query, final QueryResult actual, final ReferenceAnswer expected,
                                  final Map<String, ReferenceAnswer> references) {
        if (expected != null) {
            return AnswerCheck.difference(expected, actual);
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
