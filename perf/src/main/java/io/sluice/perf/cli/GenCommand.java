package io.sluice.perf.cli;

import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice gen}: writes the TPC-H tables at a scale factor into a store directory. */
@Command(name = "gen", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = {"Generates TPC-H tables (dbgen-exact rows) into a store directory.",
            "Tables are written concurrently, largest first; rows stream to disk, so memory stays bounded.",
            "Prints progress on stderr and, at the end, the wall time, peak RSS and row counts."},
        footer = {"", "Examples:", "  sluice gen --sf 0.1 --out data/sf0.1",
            "  sluice gen --sf 1 --out data/sf1 --tables lineitem,orders --force --threads 2"})
final class GenCommand extends CliCommand {
    private static final int MAX_THREADS = 64;

    @Option(names = "--sf", required = true, paramLabel = "<scale>", converter = ScaleFactorConverter.class,
            description = "TPC-H scale factor in (0, 1000]; 1 means 6,001,215 lineitem rows")
    double scaleFactor;

    @Option(names = "--out", required = true, paramLabel = "<dir>",
            description = "store directory to write; must be empty or missing unless --force")
    Path out;

    @Option(names = "--tables", split = ",", paramLabel = "<t1,t2>",
            description = "tables to write (default all 8): region, nation, supplier, customer, part, partsupp,"
                    + " orders, lineitem")
    List<String> tables;

    @Option(names = "--force", description = "replace the Sluice tables in a non-empty --out (refused if it"
            + " holds anything else)")
    boolean force;

    @Option(names = "--threads", paramLabel = "<n>", defaultValue = "2",
            description = "tables generated at the same time (default ${DEFAULT-VALUE})")
    int threads;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        final List<TpchTable> selected = TpchGeneration.largestFirst(selectedTables(), scaleFactor);
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("--threads " + threads + " is not valid: use 1.." + MAX_THREADS);
        }
        final OutputDirectory directory = OutputDirectory.check(this.out, force);
        directory.clear();
        if (!directory.tablesToDelete().isEmpty()) {
            err.println("removed " + directory.tablesToDelete().size() + " old tables from " + this.out);
        }
        final String[] names = new String[selected.size()];
        final long[] expected = new long[selected.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = selected.get(i).tableName();
            expected[i] = selected.get(i).expectedRows(scaleFactor);
        }
        final long start = System.nanoTime();
        final GenProgress progress = new GenProgress(err, System.console() != null, System::nanoTime, names, expected);
        final List<TpchGeneration.Result> results;
        try {
            results = TpchGeneration.run(Store.create(this.out), selected, scaleFactor, threads, progress);
        } catch (final OutOfMemoryError e) {
            return fail(err, "out of memory while generating (" + e.getMessage() + "): the TPC-H text pool alone"
                    + " takes 300 MiB of heap; give java more heap (e.g. java -Xmx2g -jar ...) or use --threads 1");
        } finally {
            progress.close();
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        report(out, results, seconds);
        return 0;
    }

    private List<TpchTable> selectedTables() {
        if (tables == null || tables.isEmpty()) {
            return List.of(TpchTable.values());
        }
        final Set<TpchTable> chosen = new LinkedHashSet<>();
        final List<String> unknown = new ArrayList<>();
        for (final String name : tables) {
            final String trimmed = name.trim().toLowerCase(Locale.ROOT);
            TpchTable match = null;
            for (final TpchTable t : TpchTable.values()) {
                if (t.tableName().equals(trimmed)) {
                    match = t;
                }
            }
            if (match == null) {
                unknown.add("'" + name + "'");
            } else {
                chosen.add(match);
            }
        }
        if (!unknown.isEmpty()) {
            final List<String> all = new ArrayList<>();
            for (final TpchTable t : TpchTable.values()) {
                all.add(t.tableName());
            }
            throw new IllegalArgumentException("unknown TPC-H table" + (unknown.size() > 1 ? "s " : " ")
                    + String.join(", ", unknown) + " in --tables: use " + String.join(",", all));
        }
        return new ArrayList<>(chosen);
    }

    private void report(final PrintWriter out, final List<TpchGeneration.Result> results, final double seconds) {
        long rows = 0;
        long bytes = 0;
        int nameWidth = "table".length();
        for (final TpchGeneration.Result r : results) {
            rows += r.rows();
            bytes += r.bytes();
            nameWidth = Math.max(nameWidth, r.name().length());
        }
        out.printf(Locale.ROOT, "generated %d tables at SF %s into %s: %d rows, %s in %.1f s (wall time); %s%n",
                results.size(), formatScale(scaleFactor), this.out, rows, Sizes.bytes(bytes), seconds,
                PeakMemory.describe());
        final String format = "  %-" + nameWidth + "s  %12s  %7s  %10s%n";
        out.printf(Locale.ROOT, format, "table", "rows", "blocks", "size");
        for (final TpchGeneration.Result r : results) {
            out.printf(Locale.ROOT, format, r.name(), r.rows(), r.blocks(), Sizes.bytes(r.bytes()));
        }
    }

    private static String formatScale(final double scaleFactor) {
        return java.math.BigDecimal.valueOf(scaleFactor).stripTrailingZeros().toPlainString();
    }
}
