package io.sluice.perf.cli;

import io.sluice.perf.tpch.Queries;
import io.sluice.perf.tpch.Query;
import io.sluice.shuffle.plan.Decision;
import io.sluice.shuffle.plan.QueryRunner;
import io.sluice.shuffle.plan.Strategy;
import io.sluice.shuffle.plan.StrategyConfig;
import io.sluice.storage.StorageException;
import io.sluice.storage.Store;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice query}: runs a TPC-H query or a workload on this node's cores and prints its rows. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Runs a TPC-H query or a join/group workload over a store on K worker threads and prints"
            + " the result (the same rows DuckDB returns for the query's SQL)."})
public final class QueryCommand extends CliCommand {
    @Option(names = "--store", required = true, paramLabel = "DIR", description = "Store directory.")
    Path store;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    /** Exactly one of --tpch and --workload. */
    static final class Which {
        @Option(names = "--tpch", paramLabel = "N", description = "TPC-H query number.")
        Integer tpch;

        @Option(names = "--workload", paramLabel = "NAME", description = "Workload: grp_orderkey, join_lo, join_lp.")
        String workload;
    }

    @Option(names = "--cores", paramLabel = "K", description = "Worker threads (default: available processors).")
    Integer cores;

    @Option(names = "--strategy", paramLabel = "S", defaultValue = "auto", converter = StrategyConverter.class,
            description = "Join and group-by distribution: auto (from zonemap stats), broadcast (merge group for"
                + " group-bys), shuffle-hash, shuffle-range or colocate (default: ${DEFAULT-VALUE}).")
    Strategy strategy;

    @Option(names = "--explain", description = "Print the strategy each join and group-by ran with on stderr.")
    boolean explain;

    @Option(names = "--format", paramLabel = "F", defaultValue = "table",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    ResultFormat format;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        final int workers = cores == null ? Runtime.getRuntime().availableProcessors() : cores;
        if (workers < 1) {
            throw new IllegalArgumentException("--cores must be 1 or more, got " + workers);
        }
        final Query query = which.tpch != null ? Queries.tpch(which.tpch) : Queries.workload(which.workload);
        if (!Files.isDirectory(store)) {
            throw new StorageException("store " + store + " does not exist: create one with sluice gen");
        }
        final Store s = Store.open(store);
        final List<String> missing = new ArrayList<>();
        for (final String t : query.tables()) {
            if (!s.hasTable(t)) {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            throw new StorageException("store " + store + " lacks table(s) " + missing + " that " + query.name()
                    + " reads: generate them with sluice gen --tables " + String.join(",", missing));
        }
        final QueryRunner.Execution execution;
        try (QueryRunner runner = new QueryRunner(s, workers, StrategyConfig.defaults().withStrategy(strategy))) {
            execution = runner.execute(query.plan());
        }
        if (explain) {
            for (final Decision d : execution.decisions()) {
                err.println("strategy " + d);
            }
        }
        out.print(ResultPrinter.format(execution.result(), format));
        return 0;
    }
}
