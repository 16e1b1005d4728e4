package io.sluice.perf.cli;

import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.StorageException;
import io.sluice.perf.tpch.Queries;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchScale;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchSqlQuery;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice query}: runs a TPC-H query or a workload on this node's cores and prints its rows. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Runs a TPC-H query or a join/group workload over a store, a folder of Parquet files or Iceberg tables, on K"
            + " worker threads and prints the result (the same rows DuckDB returns for the query's SQL)."})
public final class QueryCommand extends CliCommand {
    @Option(names = "--store", paramLabel = "DIR",
            description = "Store directory, or s3://BUCKET/PREFIX (docs/object-storage.md); with --coordinator,"
                + " optional: without it the coordinator plans TPC-H from its text over the store the CNs read"
                + " (--explain needs it here).")
    Path store;

    @Option(names = "--parquet", paramLabel = "DIR", description = "Instead of --store: a folder of Parquet files,"
            + " each NAME.parquet file or NAME/ folder of .parquet files the table NAME (see docs/parquet.md); TPC-H"
            + " is planned from its text over their statistics.")
    Path parquet;

    @Mixin
    IcebergOptions iceberg;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    /** Exactly one of --tpch and --workload. */
    static final class Which {
        @Option(names = "--tpch", paramLabel = "N", description = "TPC-H query number.")
        Integer tpch;

        @Option(names = "--workload", paramLabel = "NAME", description = "Workload: grp_orderkey, join_lo, join_lp.")
        String workload;
    }

    @Option(names = "--network", paramLabel = "N",
            description = "How the cluster's CNs reach each other: ipc (one Aeron media driver) or udp (a driver per"
                + " CN, UDP on loopback) (default: ipc). Runs on the cluster runtime, 1 CN unless --cn is given.")
    String network;

    @Option(names = "--explain", arity = "0..1", paramLabel = "plan|analyze", preprocessor = ExplainMode.Preprocessor.class,
            description = "Print the plan on stderr: the strategy of each join and group-by, the operator table (ID,"
                + " OPERATOR, NAME, EST. ROWS, COST, then outputs & filters) and the fragments with their exchanges."
                + " --explain or --explain=plan only plans: the query does not run, no rows are printed and no stats"
                + " written. --explain=analyze runs it (as --explain did before), prints its rows on stdout, and adds to each operator its actual rows"
                + " and time and to each exchange the rows and bytes it moved across and inside CNs (the numbers of"
                + " --stats-json).")
    ExplainMode explain;

    @Mixin
    RunOptions run;

    @Mixin
    ClusterOptions cluster;

    @Mixin
    RuntimeFilterOptions runtimeFilters;

    @Mixin
    ObjectStoreOptions objectStore;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        run.workers();
        cluster.timeoutMillis();
        if (parquet != null || iceberg.given()) {
            return overFiles(out, err);
        }
        final boolean onCluster = cluster.coordinator != null;
        if (onCluster && store == null && which.tpch != null) {
            return textOnCoordinator(out, err);
        }
        if (store == null && !onCluster) {
            throw new IllegalArgumentException("give --store DIR (a store made by sluice gen) or --coordinator HOST:PORT");
        }
        try (ObjectStoreOptions.Opened opened = store == null ? null : objectStore.open(store)) {
            cluster.countStorageReads(opened == null ? null : opened.reads());
            return overStore(opened == null ? null : opened.store(), onCluster, out, err);
        }
    }

    private int overStore(final Store s, final boolean onCluster, final PrintWriter out, final PrintWriter err) {
        final Query query = which.tpch != null ? new TpchSqlQuery(which.tpch, s) : Queries.workload(which.workload);
        final StrategyConfig config = runtimeFilters.apply(run.config());
        if (onCluster) {
            try (QueryTarget target = cluster.open(run, s, null, config, network)) {
                return report(target, query, out, err);
            }
        }
        final List<String> missing = new ArrayList<>();
        for (final String t : query.tables()) {
            if (!s.hasTable(t)) {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            final String sf = TpchScale.format(TpchScale.common(s).orElse(0.1));
            final String where = ObjectStoreOptions.describe(store);
            throw new StorageException("store " + where + " lacks table(s) " + missing + " that " + query.name()
                    + " reads: generate them with `sluice gen --sf " + sf + " --out " + where + " --tables "
                    + String.join(",", missing) + "`");
        }
        try (StoreCatalog catalog = new StoreCatalog(s);
             QueryTarget target = explain == ExplainMode.PLAN ? cluster.openToPlan(run, s, catalog, config, network)
                     : cluster.open(run, s, catalog, config, network)) {
            return report(target, query, out, err);
        }
    }

    /**
     * Runs the query over the Parquet tables under --parquet or the Iceberg tables of --iceberg: TPC-H from its text,
     * planned over their statistics.
     */
    private int overFiles(final PrintWriter out, final PrintWriter err) {
        final StrategyConfig config = runtimeFilters.apply(run.config());
        try (TableSource tables = TableSource.open(store, parquet, iceberg)) {
            cluster.countIcebergReads(tables.catalog());
            final Query query = which.tpch != null ? new TpchSqlQuery(which.tpch, tables.catalog(), tables.names())
                    : Queries.workload(which.workload);
            final List<String> missing = new ArrayList<>();
            for (final String t : query.tables()) {
                if (!tables.names().contains(t)) {
                    missing.add(t);
                }
            }
            if (!missing.isEmpty()) {
                throw new StorageException(parquet != null ? "parquet directory " + parquet + " lacks table(s) "
                        + missing + " that " + query.name() + " reads: add " + missing.get(0) + ".parquet (or a folder "
                        + missing.get(0) + "/ of Parquet files) to it" : tables.where() + " lacks table(s) " + missing
                        + " that " + query.name() + " reads (it has " + tables.names() + "): create them in the catalog,"
                        + " or give the namespace that holds them with --iceberg-namespace");
            }
            try (QueryTarget target = explain == ExplainMode.PLAN
                    ? cluster.openToPlan(run, null, tables.catalog(), config, network)
                    : cluster.open(run, null, tables.catalog(), config, network)) {
                return report(target, query, out, err);
            }
        }
    }

    /**
     * TPC-H on a coordinator's cluster without --store: the query's text goes to the coordinator, which plans it
     * over the tables its CNs read.
     */
    private int textOnCoordinator(final PrintWriter out, final PrintWriter err) {
        final String sql = TpchSql.text(which.tpch);
        if (explain != null) {
            throw new IllegalArgumentException("--explain plans here over the store's zonemaps: add --store DIR, the"
                    + " store the CNs read, or run without --explain");
        }
        try (QueryTarget target = cluster.open(run, null, null, runtimeFilters.apply(run.config()), network)) {
            final QueryTarget.Outcome outcome = target.runSql("q" + which.tpch, sql);
            cluster.writeStats(outcome.stats());
            out.print(ResultPrinter.format(outcome.result(), outcome.columns(), run.format));
            return 0;
        }
    }

    /**
     * Plans only (--explain=plan) and prints the plan; or runs the query, prints the plan with what it did
     * (--explain=analyze), writes the stats (with --stats-json) and the rows.
     */
    private int report(final QueryTarget target, final Query query, final PrintWriter out, final PrintWriter err) {
        if (explain == ExplainMode.PLAN) {
            err.print(target.explain(query.name(), query.plan()).render());
            if (cluster.statsJson != null) {
                err.println("--stats-json " + cluster.statsJson + " not written: --explain=plan runs nothing;"
                        + " --explain=analyze runs the query and writes it");
            }
            return 0;
        }
        final QueryTarget.Outcome outcome = explain == ExplainMode.ANALYZE ? target.analyze(query.name(), query.plan())
                : target.run(query.name(), query.plan());
        if (explain != null) {
            err.print(outcome.explain());
        }
        cluster.writeStats(outcome.stats());
        out.print(ResultPrinter.format(outcome.result(), run.format));
        return 0;
    }
}
