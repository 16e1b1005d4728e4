package io.sluice.perf.sql;

import io.sluice.dispatch.cluster.Session;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.perf.tpcds.TpcdsLoader;
import io.sluice.perf.tpcds.TpcdsTable;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the TPC-DS query texts ({@link TpcdsQueryTexts}: Spark SQL's, or those of a folder given as
 * the first argument, {@code -} for Spark's) over TPC-DS generated at a scale factor (second
 * argument, default 0.01) on a 3x2 Sluice cluster and DuckDB, as {@link CorpusRunner} compares them,
 * and prints which pass and why the others fail, grouped by reason. A tool for tracking TPC-DS
 * coverage (what {@code tpcds/queries.txt} records), not a test; it runs on perf's test classpath
 * (docs/sql.md, "TPC-DS", gives the commands).
 */
final class TpcdsQueryReport {
    private static final long TIMEOUT_SECONDS = 120;
    /** {@code -Dtpcds.full=true} prints each failure's whole message, DuckDB's answer included. */
    private static final boolean FULL = Boolean.getBoolean("tpcds.full");

    private TpcdsQueryReport() {
    }

    public static void main(final String[] args) throws Exception {
        final Path queries = args.length > 0 && !args[0].equals("-") ? Path.of(args[0]) : null;
        final double sf = args.length > 1 ? Double.parseDouble(args[1]) : 0.01;
        final Path dir = Files.createTempDirectory("tpcds-report");
        final Store store = Store.create(dir.resolve("store"));
        final List<String> names = new ArrayList<>();
        for (final TpcdsTable t : TpcdsTable.values()) {
            try (Table ignored = TpcdsLoader.load(store, t, sf, false, rows -> { })) {
                names.add(t.tableName());
            }
        }
        final Map<String, List<String>> byReason = new TreeMap<>();
        int passed = 0;
        int total = 0;
        final ExecutorService pool = Executors.newCachedThreadPool(r -> {
            final Thread t = new Thread(r, "tpcds-report");
            t.setDaemon(true);
            return t;
        });
        try (StoreCatalog catalog = new StoreCatalog(store);
             Session session = new Session(store, Topology.parse("3x2"));
             Connection duck = DuckDbLoader.openInMemory(2)) {
            DuckDbLoader.load(store, names, duck);
            final SqlPlanner planner = new SqlPlanner(catalog, store.tableNames());
            final CorpusRunner runner = new CorpusRunner(catalog, planner, session, duck);
            for (final Map.Entry<String, String> query : TpcdsQueryTexts.load(queries).entrySet()) {
                total++;
                final CorpusRunner.Case c = new CorpusRunner.Case(query.getKey() + ".sql", 1, query.getValue(), null);
                final Future<?> run = pool.submit(() -> {
                    runner.check(c);
                    return null;
                });
                String reason = null;
                String full = null;
                try {
                    run.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (final TimeoutException e) {
                    run.cancel(true);
                    reason = "timeout after " + TIMEOUT_SECONDS + " s";
                } catch (final java.util.concurrent.ExecutionException e) {
                    reason = reason(e.getCause());
                    full = String.valueOf(e.getCause().getMessage());
                }
                if (reason == null) {
                    passed++;
                    System.out.println(c.file() + " PASS");
                } else {
                    System.out.println(c.file() + " FAIL " + reason);
                    if (FULL) {
                        System.out.println(full);
                    }
                    byReason.computeIfAbsent(reason, k -> new ArrayList<>()).add(c.file().replace(".sql", ""));
                }
            }
        } finally {
            pool.shutdownNow();
            // The generated store is this run's alone: a report at SF 1 leaves gigabytes otherwise.
            org.agrona.IoUtil.delete(dir.toFile(), true);
        }
        System.out.println();
        System.out.println(passed + " of " + total + " pass at SF " + sf);
        byReason.entrySet().stream().sorted((a, b) -> b.getValue().size() - a.getValue().size())
                .forEach(e -> System.out.println(e.getValue().size() + "  " + e.getKey() + "  " + e.getValue()));
    }

    /** The first line of a failure, with the statement-specific parts cut off. */
    private static String reason(final Throwable t) {
        String m = String.valueOf(t.getMessage());
        final int nl = m.indexOf('\n');
        m = nl < 0 ? m : m.substring(0, nl);
        m = m.replaceFirst("^\\S+\\.sql:\\d+:? ", "");
        return m.length() > 160 ? m.substring(0, 160) : m;
    }
}
