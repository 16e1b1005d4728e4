package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.RuntimeFilterPlan;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.StorageException;
import io.sluice.perf.tpch.Queries;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchScale;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchSqlQuery;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.transport.Endpoint;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice query}: runs a TPC-H query or a workload on this node's cores and prints its rows. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Runs a TPC-H query or a join/group workload over a store on K worker threads and prints"
            + " the result (the same rows DuckDB returns for the query's SQL)."})
public final class QueryCommand extends CliCommand {
    @Option(names = "--store", paramLabel = "DIR",
            description = "Store directory (not with --coordinator: the cluster reads its own).")
    Path store;

    @Option(names = "--coordinator", paramLabel = "HOST:PORT",
            description = "Run on the cluster of this coordinator (sluice coordinator / cluster up): on every CN alive,"
                + " or --cn of them, with --cores each (default: the fewest cores any of them offers).")
    String coordinator;

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

    @Option(names = "--explain", description = "Print the plan on stderr: the strategy of each join and group-by"
            + " and, on a cluster, the fragments and exchanges.")
    boolean explain;

    @Option(names = "--stats-json", paramLabel = "FILE", description = "Write what crossed CNs, per exchange, as JSON"
            + " (runs on the cluster runtime, 1 CN unless --cn is given).")
    Path statsJson;

    @Option(names = "--timeout", paramLabel = "MS",
            description = "Fail the query once it has taken MS milliseconds, waiting for a place included; it stops on"
                + " every CN (runs on the cluster runtime, 1 CN unless --cn or --coordinator is given; default: none).")
    Long timeout;

    @Mixin
    RunOptions run;

    @Mixin
    SecretOption secret;

    @Mixin
    RuntimeFilterOptions runtimeFilters;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        final int workers = run.workers();
        final Integer cn = run.cn;
        if (timeout != null && timeout < 1) {
            throw new IllegalArgumentException("--timeout must be 1 ms or more, got " + timeout);
        }
        final long timeoutMillis = timeout == null ? 0 : timeout;
        final boolean fromText = which.tpch != null && which.tpch >= 1 && which.tpch <= TpchSql.COUNT
                && !Queries.hasTpch(which.tpch) && store != null && coordinator == null;
        final Query query = fromText ? new TpchSqlQuery(which.tpch, Store.open(store))
                : which.tpch != null ? Queries.tpch(which.tpch) : Queries.workload(which.workload);
        final StrategyConfig config = runtimeFilters.apply(run.config());
        if (coordinator != null) {
            if (store != null) {
                throw new IllegalArgumentException("--store and --coordinator exclude each other: the cluster reads the"
                        + " store its coordinator and CNs were started with");
            }
            checkStatsPath();
            final Session.Execution execution;
            try (CancelOnStop stop = new CancelOnStop();
                 Session session = Session.connect(Endpoint.parse(coordinator, false), Session.defaultTransport(),
                         secret.context())) {
                stop.cancels(session);
                session.shape(cn == null ? 0 : cn, run.cores == null ? 0 : run.cores);
                execution = session.execute(query.name(), query.plan(), config, timeoutMillis);
            }
            return report(execution, out, err);
        }
        if (store == null) {
            throw new IllegalArgumentException("give --store DIR (a store made by sluice gen) or --coordinator HOST:PORT");
        }
        final Store s = Store.open(store);
        final List<String> missing = new ArrayList<>();
        for (final String t : query.tables()) {
            if (!s.hasTable(t)) {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            final String sf = TpchScale.format(TpchScale.common(s).orElse(0.1));
            throw new StorageException("store " + store + " lacks table(s) " + missing + " that " + query.name()
                    + " reads: generate them with `sluice gen --sf " + sf + " --out " + store + " --tables "
                    + String.join(",", missing) + "`");
        }
        checkStatsPath();
        if (run.cn == null && statsJson == null && network == null && timeout == null) {
            final QueryRunner.Execution execution;
            try (StoreCatalog catalog = new StoreCatalog(s); QueryRunner runner = new QueryRunner(catalog, workers, config)) {
                execution = runner.execute(query.plan());
            }
            if (explain) {
                for (final Decision d : execution.decisions()) {
                    err.println("strategy " + d);
                }
                for (final RuntimeFilterPlan f : execution.runtimeFilters()) {
                    err.println("runtime filter " + f);
                }
            }
            out.print(ResultPrinter.format(execution.result(), run.format));
            return 0;
        }
        final Topology topology = new Topology(run.cn == null ? 1 : run.cn, workers);
        final Session.Network net = Session.Network.parse(network == null ? "ipc" : network);
        final Session.Execution execution;
        try (CancelOnStop stop = new CancelOnStop(); Session session = new Session(s, topology, net)) {
            stop.cancels(session);
            execution = session.execute(query.name(), query.plan(), config, timeoutMillis);
        }
        return report(execution, out, err);
    }

    private void checkStatsPath() {
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

    /** Prints a cluster query's plan (with --explain), writes its stats (with --stats-json) and its rows. */
    private int report(final Session.Execution execution, final PrintWriter out, final PrintWriter err) {
        if (explain) {
            err.print(execution.explain());
        }
        if (statsJson != null) {
            try {
                Files.writeString(statsJson, StatsJson.of(execution.stats()));
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot write --stats-json " + statsJson + ": " + e.getMessage(), e);
            }
        }
        out.print(ResultPrinter.format(execution.result(), run.format));
        return 0;
    }
}
