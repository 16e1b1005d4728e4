package io.sluice.perf.cli;

import io.sluice.format.StorageException;
import io.sluice.storage.Store;
import io.sluice.storage.StoreContents;
import io.sluice.storage.StoreLock;
import io.sluice.storage.Table;
import io.sluice.storage.TableManifest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice inspect}: shows a store's tables and their zonemap statistics. */
@Command(name = "inspect", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = {"Shows the tables of a store: rows, blocks, bytes, sort key, and per column its type and"
                + " the min, max and null count over all blocks' zonemaps; then the table directories it cannot"
                + " read (damaged: exit code 1), and what an unfinished write left (removed by the next writer).",
            "Reads only manifests and zonemap indexes, unless --verify is given: then every block of the selected"
                    + " tables is read and all checksums are verified, and every damaged or missing block is listed.",
            "Strings show the prefix zonemaps keep; \"...\"+ marks an 8-byte prefix of longer values."},
        footer = {"", "Examples:", "  sluice inspect --store data/sf0.1",
            "  sluice inspect --store data/sf0.1 --table lineitem --json",
            "  sluice inspect --store data/sf0.1 --verify",
            "  sluice inspect --store s3://bucket/sf0.1 --table lineitem --verify --cache-dir /tmp/sluice-cache"})
final class InspectCommand extends CliCommand {
    @Option(names = "--store", required = true, paramLabel = "<dir>",
            description = "store directory, or s3://BUCKET/PREFIX on object storage (docs/object-storage.md)")
    Path store;

    @Mixin
    ObjectStoreOptions objectStore;

    @Option(names = "--table", paramLabel = "<name>", description = "inspect only this table")
    String table;

    @Option(names = "--json", description = "print a JSON document instead of text")
    boolean json;

    @Option(names = "--verify", description = "read every block and verify its checksums (exit code 1 if any is"
            + " damaged or missing)")
    boolean verify;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        try (ObjectStoreOptions.Opened opened = objectStore.open(store)) {
            return inspect(opened, out, err);
        }
    }

    private int inspect(final ObjectStoreOptions.Opened source, final PrintWriter out, final PrintWriter err) {
        final Store opened = source.store();
        final TableVerifier.BlockFiles files = source.s3() == null ? TableVerifier.BlockFiles.LOCAL
                : TableVerifier.BlockFiles.of(source.s3());
        // A store on object storage is read through a local copy of its manifests: what unfinished uploads left
        // on the server is not in it (the next writer removes it), nor is the lock, an object.
        final StoreContents contents = opened.contents();
        final List<String> names;
        final List<InspectedStore.Damaged> damaged = new ArrayList<>();
        if (table != null) {
            if (!opened.hasTable(table)) {
                opened.table(table);
            }
            names = List.of(table);
        } else {
            names = contents.tables();
            for (final Path dir : contents.damaged()) {
                damaged.add(new InspectedStore.Damaged(dir.getFileName().toString(), "directory " + dir + " has no "
                        + TableManifest.FILE + ": it is not a complete table; regenerate or re-import it"));
            }
        }
        final List<InspectedTable> inspected = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        for (final String name : names) {
            try (Table t = opened.table(name)) {
                final TableVerifier.Report report = verify ? TableVerifier.verify(t, files)
                        : TableVerifier.presence(t, files);
                problems.addAll(report.problems());
                inspected.add(new InspectedTable(TableSummary.of(t), verify ? report : null));
            } catch (final StorageException e) {
                damaged.add(new InspectedStore.Damaged(name, e.getMessage()));
            }
        }
        final List<Path> leftovers = new ArrayList<>();
        if (source.s3() == null) {
            for (final Path p : contents.leftovers()) {
                leftovers.add(store.toAbsolutePath().normalize().relativize(p.toAbsolutePath().normalize()));
            }
        }
        final InspectedStore report = new InspectedStore(ObjectStoreOptions.describe(store), inspected, damaged,
                leftovers, source.s3() == null ? StoreLock.recorded(store).orElse(null) : null);
        out.print(json ? InspectJson.render(report) : InspectText.render(report));
        for (final InspectedStore.Damaged d : damaged) {
            fail(err, "table '" + d.name() + "' is damaged: " + d.problem());
        }
        for (final String problem : problems) {
            fail(err, problem);
        }
        return problems.isEmpty() && damaged.isEmpty() ? 0 : FAILED;
    }
}
