package io.sluice.perf.cli;

import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.text.Plural;
import io.sluice.sql.SqlException;
import io.sluice.sql.SqlPlanner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice sql}: plans SQL SELECT statements over a store and runs them on this node's cores, an
 * embedded cluster or the cluster of a running coordinator; on a terminal without a statement, an
 * interactive prompt ({@link SqlPrompt}).
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"Runs SQL queries (SELECT or WITH ... SELECT) over the tables of a store, or of a folder of Parquet"
                + " files, and prints their results.",
            "The statement comes from -f FILE, from the argument, or from stdin (several statements, each ending with ;,"
                + " run one after the other; the first that fails ends the command; their results are apart: a blank"
                + " line between tables, which end with their row count, and between CSV results, whose row counts go"
                + " to stderr; a JSON result per object, with its row_count). On a terminal with none of these,"
                + " an interactive prompt: statements over several lines end with ;, history in ~/.sluice_history,"
                + " \\q, quit, exit or CTRL-D to leave, CTRL-C to drop the line typed or cancel the query running."},
        footer = {"", "Examples:", "  sluice sql --store data/sf1 \"select count(*) from lineitem\"",
            "  sluice sql --store data/sf1 -f q12.sql --cn 3 --cores 2 --explain=analyze",
            "  sluice sql --store data/sf1 --coordinator 127.0.0.1:7400 --stats-json s.json -f q12.sql",
            "  sluice sql --coordinator 127.0.0.1:7400 -f q12.sql",
            "  sluice sql --store data/sf1",
            "  sluice sql --parquet data/parquet --cn 3 --cores 2 -f q12.sql",
            "  sluice sql --iceberg jdbc:sqlite:warehouse/catalog.db --iceberg-namespace tpch -f q12.sql"})
public final class SqlCommand extends CliCommand {
    @Option(names = "--store", paramLabel = "DIR", description = "Store directory (made by sluice gen"
            + " or sluice import), or s3://BUCKET/PREFIX on object storage (docs/object-storage.md), whose schemas and zonemaps plan the statements; with --coordinator the store the"
            + " cluster's CNs read, which may be left out: the coordinator then plans the statements from its own"
            + " store (no --explain, no prompt).")
    Path store;

    @Option(names = "--parquet", paramLabel = "DIR", description = "Instead of --store: a folder of Parquet files,"
            + " each NAME.parquet file or NAME/ folder of .parquet files the table NAME; row groups are blocks, their"
            + " statistics zonemaps (see docs/parquet.md). With --coordinator, the files the cluster's CNs read.")
    Path parquet;

    @Mixin
    IcebergOptions iceberg;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Read the statements from this file.")
    Path file;

    @Parameters(arity = "0..1", paramLabel = "SQL", description = "The statement (else -f FILE, else stdin, else the"
            + " prompt).")
    String text;

    @Option(names = "--explain", arity = "0..1", paramLabel = "plan|analyze", preprocessor = ExplainMode.Preprocessor.class,
            description = "Print on stderr the planner's estimates (rows, blocks kept by pruning, join sides), the plan,"
                + " the strategy of each join and group-by, the operator table and the fragments with their exchanges."
                + " --explain or --explain=plan only plans each statement: nothing runs and no rows are printed."
                + " --explain=analyze runs it (as --explain did before), prints its rows, and adds each operator's actual rows and time and each"
                + " exchange's rows and bytes across and inside CNs.")
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
    int execute(final PrintWriter out, final PrintWriter err) throws IOException {
        run.workers();
        cluster.timeoutMillis();
        final boolean prompt = file == null && text == null && System.console() != null;
        final String source = file != null ? file.toString() : text != null ? "the statement" : "stdin";
        if (store == null && parquet == null && !iceberg.given()) {
            return withoutStore(prompt, source, out, err);
        }
        final List<String> statements = prompt ? List.of() : statements();
        final StrategyConfig config = runtimeFilters.apply(run.config());
        try (TableSource tables = TableSource.open(store, parquet, iceberg, null, objectStore);
             QueryTarget target = explain == ExplainMode.PLAN
                     ? cluster.openToPlan(run, tables.store(), tables.catalog(), config, null)
                     : cluster.open(run, tables.store(), tables.catalog(), config, null)) {
            cluster.countStorageReads(tables.opened() == null ? null : tables.opened().reads());
            cluster.countIcebergReads(tables.catalog());
            final SqlStatementRunner runner = new SqlStatementRunner(new SqlPlanner(tables.catalog(), tables.names()),
                    target, run.format, explain, cluster);
            if (prompt) {
                return prompt(runner, tables.where(), err);
            }
            final boolean several = statements.size() > 1 && explain != ExplainMode.PLAN;
            for (int i = 0; i < statements.size(); i++) {
                final SqlStatementRunner.Ran ran;
                try {
                    ran = runner.run(statements.get(i), out, err,
                            several && i > 0 ? ResultPrinter.separator(run.format) : "");
                } catch (final SqlException e) {
                    return fail(err, source + ": " + e.getMessage());
                }
                if (several && run.format == ResultFormat.csv) {
                    // The count goes beside the rows, not among them: stdout stays CSV.
                    err.println("(" + Plural.of(ran.rows(), "row") + ")");
                    err.flush();
                }
            }
            return 0;
        }
    }

    /** Sends the statements' text to the coordinator, which plans them from its store. */
    private int withoutStore(final boolean prompt, final String source, final PrintWriter out, final PrintWriter err)
            throws IOException {
        if (cluster.coordinator == null) {
            throw new IllegalArgumentException("give " + TableSource.SOURCES + ", whose tables the statements read,"
                    + " or --coordinator HOST:PORT, whose tables plan them");
        }
        if (explain != null || prompt) {
            throw new IllegalArgumentException((prompt ? "the prompt" : "--explain") + " needs --store DIR: it plans"
                    + " the statements here, from the store's zonemaps; give the cluster's store with --store");
        }
        final String failed = CoordinatorStatements.run(cluster, run, runtimeFilters.apply(run.config()), statements(),
                out, err);
        return failed == null ? 0 : fail(err, source + ": " + failed);
    }

    private int prompt(final SqlStatementRunner runner, final String where, final PrintWriter err) throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().name("sluice sql").system(true).build()) {
            final PrintWriter writer = terminal.writer();
            writer.println("sluice sql over " + where + (cluster.coordinator == null ? ""
                    : " on the cluster of " + cluster.coordinator) + ": statements end with ;, \\q to leave");
            new SqlPrompt(terminal, runner, SqlPrompt.defaultHistory(), writer, writer,
                    spec.qualifiedName() + ": error: ", run.format).run();
            writer.flush();
        }
        err.flush();
        return 0;
    }

    /** The statements of -f FILE, of the argument or of stdin, each to run one after the other. */
    private List<String> statements() throws IOException {
        if (file != null && text != null) {
            throw new IllegalArgumentException("give the statement either with -f FILE or as the argument, not both");
        }
        final String sql;
        if (file != null) {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("-f " + file + ": no such file");
            }
            sql = Files.readString(file, StandardCharsets.UTF_8);
        } else if (text != null) {
            sql = text;
        } else {
            sql = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
        }
        final SqlScript script = SqlScript.split(sql);
        final List<String> statements = new ArrayList<>(script.statements());
        if (script.hasRest()) {
            statements.add(script.rest());
        }
        if (statements.isEmpty()) {
            throw new IllegalArgumentException("no statement: give one as the argument, with -f FILE or on stdin");
        }
        return statements;
    }
}
