package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import io.sluice.sql.PlannedQuery;
import io.sluice.sql.SqlException;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice sql}: plans a SQL SELECT over a store and runs it on this node's cores or an embedded cluster. */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"Runs a SQL query (SELECT or WITH ... SELECT) over the tables of a store and prints the result."
            + " The statement comes from -f FILE, from the argument, or from stdin."})
public final class SqlCommand extends CliCommand {
    @Option(names = "--store", paramLabel = "DIR", required = true, description = "Store directory (made by sluice gen"
            + " or sluice import).")
    Path store;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Read the statement from this file.")
    Path file;

    @Parameters(arity = "0..1", paramLabel = "SQL", description = "The statement (else -f FILE, else stdin).")
    String text;

    @Option(names = "--explain", description = "Print on stderr the planner's estimates (rows, blocks kept by"
            + " pruning, join sides), the plan, the strategy of each join and group-by and, on a cluster, the"
            + " fragments and exchanges.")
    boolean explain;

    @Mixin
    RunOptions run;

    @Mixin
    RuntimeFilterOptions runtimeFilters;

    /** Where the statement came from, for error messages. */
    private String source = "the statement";

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws IOException {
        final int workers = run.workers();
        final String sql = statement();
        final Store s = Store.open(store);
        final StrategyConfig config = runtimeFilters.apply(run.config());
        try (StoreCatalog catalog = new StoreCatalog(s)) {
            final PlannedQuery planned;
            try {
                planned = new SqlPlanner(catalog, s.tableNames()).plan(sql);
            } catch (final SqlException e) {
                return fail(err, source + ": " + e.getMessage());
            }
            if (explain) {
                err.printf(Locale.ROOT, "planned in %.1f ms%n", planned.planningNanos() / 1e6);
                for (final String line : planned.estimates()) {
                    err.println("estimate " + line);
                }
                err.println("plan " + planned.plan());
            }
            if (run.cn == null) {
                final QueryRunner.Execution execution;
                try (QueryRunner runner = new QueryRunner(catalog, workers, config)) {
                    execution = runner.execute(planned.plan());
                }
                if (explain) {
                    for (final Decision d : execution.decisions()) {
                        err.println("strategy " + d);
                    }
                }
                out.print(ResultPrinter.format(execution.result(), run.format));
                return 0;
            }
            final Session.Execution execution;
            try (CancelOnStop stop = new CancelOnStop();
                 Session session = new Session(s, new Topology(run.cn, workers), Session.Network.IPC)) {
                stop.cancels(session);
                execution = session.execute("sql", planned.plan(), config, 0);
            }
            if (explain) {
                err.print(execution.explain());
            }
            out.print(ResultPrinter.format(execution.result(), run.format));
            return 0;
        }
    }

    private String statement() throws IOException {
        if (file != null && text != null) {
            throw new IllegalArgumentException("give the statement either with -f FILE or as the argument, not both");
        }
        if (file != null) {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("-f " + file + ": no such file");
            }
            source = file.toString();
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        if (text != null) {
            return text;
        }
        source = "stdin";
        final String sql = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
        if (sql.isBlank()) {
            throw new IllegalArgumentException("no statement: give one as the argument, with -f FILE or on stdin");
        }
        return sql;
    }
}
