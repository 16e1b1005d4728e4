package io.sluice.perf.cli;

import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice inspect}: shows a store's tables and their zonemap statistics. */
@Command(name = "inspect", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = {"Shows the tables of a store: rows, blocks, bytes, sort key, and per column its type and"
                + " the min, max and null count over all blocks' zonemaps.",
            "Reads only manifests and zonemap indexes, unless --verify is given: then every block of the selected"
                    + " tables is read and all checksums are verified.",
            "Strings show the prefix zonemaps keep; \"...\"+ marks an 8-byte prefix of longer values."},
        footer = {"", "Examples:", "  sluice inspect --store data/sf0.1",
            "  sluice inspect --store data/sf0.1 --table lineitem --json",
            "  sluice inspect --store data/sf0.1 --verify"})
final class InspectCommand extends CliCommand {
    @Option(names = "--store", required = true, paramLabel = "<dir>", description = "store directory")
    Path store;

    @Option(names = "--table", paramLabel = "<name>", description = "inspect only this table")
    String table;

    @Option(names = "--json", description = "print a JSON document instead of text")
    boolean json;

    @Option(names = "--verify", description = "read every block and verify its checksums (exit code 1 if any is"
            + " damaged)")
    boolean verify;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        final Store opened = Store.open(store);
        final List<String> names = table == null ? opened.tableNames() : List.of(table);
        final List<InspectedTable> inspected = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        for (final String name : names) {
            try (Table t = opened.table(name)) {
                final TableVerifier.Report report = verify ? TableVerifier.verify(t) : null;
                if (report != null) {
                    problems.addAll(report.problems());
                }
                inspected.add(new InspectedTable(TableSummary.of(t), report));
            }
        }
        out.print(json ? InspectJson.render(store, inspected) : InspectText.render(store, inspected));
        for (final String problem : problems) {
            fail(err, problem);
        }
        return problems.isEmpty() ? 0 : FAILED;
    }
}
