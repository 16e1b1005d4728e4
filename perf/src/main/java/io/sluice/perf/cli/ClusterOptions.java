package io.sluice.perf.cli;

import io.sluice.dispatch.control.StorageReads;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.spi.Catalog;
import io.sluice.iceberg.IcebergCatalog;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options {@code sluice query} and {@code sluice sql} share about the cluster a query runs on: the
 * coordinator of a running cluster and its secret, a time limit, and the file that receives what crossed
 * CNs; and the choice, from them and {@link RunOptions}, of the {@link QueryTarget} the query runs on.
 */
final class ClusterOptions {
    @Option(names = "--coordinator", paramLabel = "HOST:PORT",
            description = "Run on the cluster of this coordinator (sluice coordinator / cluster up): on every CN alive,"
                + " or --cn of them, with --cores each (default: the fewest cores any of them offers).")
    String coordinator;

    @Option(names = "--stats-json", paramLabel = "FILE", description = "Write what crossed CNs, per exchange, as JSON"
            + " (runs on the cluster runtime, 1 CN unless --cn or --coordinator is given).")
    Path statsJson;

    @Option(names = "--timeout", paramLabel = "MS",
            description = "Fail the query once it has taken MS milliseconds, waiting for a place included; it stops on"
                + " every CN (runs on the cluster runtime, 1 CN unless --cn or --coordinator is given; default: none).")
    Long timeout;

    @Mixin
    SecretOption secret;

    /** The time limit in milliseconds, checked; 0 for none. */
    long timeoutMillis() {
        if (timeout != null && timeout < 1) {
            throw new IllegalArgumentException("--timeout must be 1 ms or more, got " + timeout);
        }
        return timeout == null ? 0 : timeout;
    }

    /** Whether these options ask for the cluster runtime even without --cn (to have stats, or a time limit). */
    boolean needClusterRuntime() {
        return coordinator != null || statsJson != null || timeout != null;
    }

    /** Fails, before any query runs, when --stats-json names a directory or a file in no writable directory. */
    void checkStatsPath() {
        if (statsJson != null && Files.isDirectory(statsJson)) {
            throw new IllegalArgumentException("--stats-json " + statsJson + " is a directory: give a file to write,"
                    + " e.g. --stats-json " + statsJson.resolve("stats.json"));
        }
        final Path statsDir = statsJson == null ? null : statsJson.toAbsolutePath().getParent();
        if (statsDir != null && (!Files.isDirectory(statsDir) || !Files.isWritable(statsDir))) {
            throw new IllegalArgumentException("--stats-json " + statsJson + ": directory " + statsDir
                    + " does not exist or is not writable; create it or choose another file");
        }
    }

    /** What this process read of a store on object storage, counted when the queries run here; else null. */
    private Supplier<StorageReads> storageReads;
    private StorageReads lastReads;

    /**
     * Counts what the queries read of a store on object storage from {@code reads} (this process's counters; nothing
     * when null, or when the queries run on a coordinator's cluster), for --stats-json.
     */
    void countStorageReads(final Supplier<StorageReads> reads) {
        storageReads = coordinator == null ? reads : null;
        lastReads = storageReads == null ? null : storageReads.get();
    }

    /** The Iceberg tables the queries read in this process, counted for --stats-json; else null. */
    private IcebergCatalog iceberg;
    private IcebergCatalog.Reads lastIcebergReads;

    /**
     * Counts the data files and blocks the queries read of {@code catalog} when it holds Iceberg tables and the queries
     * run in this process, for --stats-json.
     */
    void countIcebergReads(final Catalog catalog) {
        iceberg = coordinator == null && catalog instanceof IcebergCatalog i ? i : null;
        lastIcebergReads = iceberg == null ? null : iceberg.reads();
    }

    /** Writes a query's stats to the --stats-json file (replacing it), when one was given and the query has stats. */
    void writeStats(final QueryStats stats) {
        if (statsJson == null || stats == null) {
            return;
        }
        // Queries on this process's cores or embedded CNs: this process's counters; on a coordinator's CN
        // processes: what those CNs counted, summed by the coordinator (null when none reads object storage).
        StorageReads read = stats.storage();
        if (storageReads != null) {
            final StorageReads now = storageReads.get();
            read = now.since(lastReads);
            lastReads = now;
        }
        IcebergCatalog.Reads icebergRead = null;
        if (iceberg != null) {
            final IcebergCatalog.Reads now = iceberg.reads();
            icebergRead = now.since(lastIcebergReads);
            lastIcebergReads = now;
        }
        try {
            Files.writeString(statsJson, StatsJson.of(stats, read, icebergRead));
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write --stats-json " + statsJson + ": " + e.getMessage(), e);
        }
    }

    /**
     * Where the queries run: the coordinator's cluster with --coordinator; an embedded cluster of --cn CNs
     * (1 without --cn) over {@code network} when --cn, a network, --stats-json or --timeout asks for the cluster
     * runtime; else {@code run.workers()} threads of this process over {@code catalog}.
     *
     * @param store   the store an embedded cluster reads (not used with --coordinator); null when {@code catalog}
     *                holds Parquet files, which the CNs then read
     * @param network how embedded CNs reach each other; null for the default, ipc
     */
    QueryTarget open(final RunOptions run, final Store store, final Catalog catalog,
                     final StrategyConfig config, final String network) {
        final int workers = run.workers();
        final long timeoutMillis = timeoutMillis();
        checkStatsPath();
        if (coordinator != null && store == null && catalog != null) {
            return QueryTarget.coordinator(coordinator, secret.context(), run.cn == null ? 0 : run.cn,
                    run.cores == null ? 0 : run.cores, config, timeoutMillis, catalog);
        }
        if (coordinator != null) {
            return QueryTarget.coordinator(coordinator, secret.context(), run.cn == null ? 0 : run.cn,
                    run.cores == null ? 0 : run.cores, config, timeoutMillis, store);
        }
        if (run.cn == null && network == null && !needClusterRuntime()) {
            return QueryTarget.local(catalog, workers, config);
        }
        final Topology topology = new Topology(run.cn == null ? 1 : run.cn, workers);
        final Session.Network net = Session.Network.parse(network == null ? "ipc" : network);
        return store == null ? QueryTarget.embedded(catalog, topology, net, config, timeoutMillis)
                : QueryTarget.embedded(store, topology, net, config, timeoutMillis);
    }

    /**
     * Where a query is explained without running it (--explain=plan): with --coordinator, the coordinator's
     * cluster (for its shape); else a target that only plans, for the shape {@link #open} would start,
     * starting nothing.
     */
    QueryTarget openToPlan(final RunOptions run, final Store store, final Catalog catalog,
                           final StrategyConfig config, final String network) {
        if (coordinator != null) {
            return open(run, store, catalog, config, network);
        }
        final boolean local = run.cn == null && network == null && !needClusterRuntime();
        return QueryTarget.planning(catalog, new Topology(run.cn == null ? 1 : run.cn, run.workers()), !local, config);
    }
}
