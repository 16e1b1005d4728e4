package io.sluice.perf.cli;

import io.sluice.perf.text.Plural;
import io.sluice.s3.S3StoreLock;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.zonemap.TableSketch;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.agrona.CloseHelper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice analyze}: computes the sketches of stored tables written without them. */
@Command(name = "analyze", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = {"Reads every block of the listed tables (default: every table) and stores each column's"
                + " sketch beside its zonemaps: quantiles, frequent keys and a distinct count. The planner uses them"
                + " where zonemaps cannot see how keys are distributed (unsorted tables, whose blocks all span the"
                + " whole key range): range boundaries, heavy keys and distinct counts.",
            "gen and import write the sketches with every table; analyze is for tables written before they did,"
                + " or whose statistics file was damaged. Holds the store's lock while it writes."},
        footer = {"", "Examples:", "  sluice analyze --store data/sf1",
            "  sluice analyze --store data/sf1 --tables lineitem,orders",
            "  sluice analyze --store s3://bucket/sf1 --tables orders"})
final class AnalyzeCommand extends CliCommand {
    @Option(names = "--store", required = true, paramLabel = "<dir>",
            description = "store directory, or s3://BUCKET/PREFIX on object storage (docs/object-storage.md)")
    Path store;

    @Mixin
    ObjectStoreOptions objectStore;

    @Option(names = "--tables", split = ",", paramLabel = "<t1,t2>",
            description = "tables to analyze (default: every table of the store)")
    List<String> tables;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        try (ObjectStoreOptions.Opened source = objectStore.open(store)) {
            final Store opened = source.store();
            final List<String> names = selected(opened);
            final long start = System.nanoTime();
            long rows = 0;
            // On object storage the blocks are read through the block cache and each sketch is uploaded beside the
            // table's zonemap index, under the store's lock (an object) as gen and import take it.
            final AutoCloseable lock = source.s3() == null ? lock(opened, err)
                    : S3StoreLock.acquire(source.s3().objects(), commandLine());
            try {
                for (final String name : names) {
                    final long tableStart = System.nanoTime();
                    try (Table table = opened.table(name)) {
                        err.printf(Locale.ROOT, "analyze: %s (%s in %s)...%n", name, Plural.of(table.rowCount(), "row"),
                                Plural.of(table.blockCount(), "block"));
                        err.flush();
                        final byte[] sketch = TableSketch.scan(table).finish();
                        if (source.s3() == null) {
                            table.writeStatistics(sketch);
                        } else {
                            source.s3().writeStatistics(table, sketch);
                        }
                        rows += table.rowCount();
                        out.printf(Locale.ROOT, "  %-12s %12d rows  sketch %10s  %.1f s%n", name, table.rowCount(),
                                Sizes.bytes(sketch.length), (System.nanoTime() - tableStart) / 1e9);
                    }
                }
            } finally {
                CloseHelper.close(lock);
            }
            out.printf(Locale.ROOT, "analyzed %s of %s: %s in %.1f s%n", Plural.of(names.size(), "table"), describe(),
                    Plural.of(rows, "row"), (System.nanoTime() - start) / 1e9);
            return 0;
        }
    }

    private String describe() {
        return ObjectStoreOptions.describe(store);
    }

    private List<String> selected(final Store opened) {
        final List<String> all = opened.tableNames();
        if (tables == null || tables.isEmpty()) {
            if (all.isEmpty()) {
                throw new IllegalArgumentException("store " + describe() + " has no table to analyze");
            }
            return all;
        }
        final Set<String> chosen = new TreeSet<>();
        final List<String> unknown = new ArrayList<>();
        for (final String t : tables) {
            final String name = t.trim();
            if (all.contains(name)) {
                chosen.add(name);
            } else {
                unknown.add("'" + t + "'");
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("store " + describe() + " has no table " + String.join(", ", unknown)
                    + ": its tables are " + String.join(", ", all));
        }
        return new ArrayList<>(chosen);
    }
}
