package io.sluice.perf.cli;

import io.sluice.perf.text.Plural;
import io.sluice.perf.tpcds.TpcdsLoader;
import io.sluice.perf.tpcds.TpcdsTable;
import io.sluice.perf.tpch.TpchScale;
import io.sluice.perf.tpch.TpchSkew;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.StoreContents;
import io.sluice.storage.StoreLock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice gen}: writes TPC-H or TPC-DS tables at a scale factor into a store directory. */
@Command(name = "gen", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        description = {"Generates TPC-H tables (dbgen-exact rows), or with --benchmark tpcds the 24 TPC-DS tables"
                + " (dsdgen's rows), into a store directory: a new one, or a store of"
                + " the same scale factor, to which it adds the tables listed (--tables) and where it replaces only"
                + " those (--force), leaving the others untouched.",
            "Tables are written concurrently, largest first; rows stream to disk, so memory stays bounded.",
            "Holds the store's lock while it writes; a second writer fails at once, naming this one.",
            "Prints progress on stderr and, at the end, the wall time, peak RSS and row counts. SIGINT or SIGTERM"
                    + " removes the unfinished tables and keeps the complete ones."},
        footer = {"", "Examples:", "  sluice gen --sf 0.1 --out data/sf0.1",
            "  sluice gen --sf 1 --out data/sf1 --tables lineitem,orders",
            "  sluice gen --sf 1 --out data/sf1 --tables lineitem,orders --force --threads 2",
            "  sluice gen --sf 0.1 --skew 1.5 --out data/sf0.1-skew1.5",
            "  sluice gen --benchmark tpcds --sf 1 --out data/tpcds-sf1"})
final class GenCommand extends CliCommand {
    private static final int MAX_THREADS = 64;

    /** The benchmarks whose tables gen writes. */
    enum Benchmark { TPCH, TPCDS }

    @Option(names = "--benchmark", paramLabel = "<name>", defaultValue = "tpch", converter = BenchmarkConverter.class,
            description = "tpch (default, 8 tables) or tpcds (24 tables, standard names and types)")
    Benchmark benchmark;

    @Option(names = "--sf", required = true, paramLabel = "<scale>", converter = ScaleFactorConverter.class,
            description = "scale factor in (0, 1000]; TPC-H SF 1 has 6,001,215 lineitem rows, TPC-DS SF 1"
                    + " 2,880,404 store_sales rows")
    double scaleFactor;

    @Option(names = "--out", required = true, paramLabel = "<dir>",
            description = "store directory to write: new, empty, or a store of tables at the same scale factor; or"
                    + " s3://BUCKET/PREFIX on object storage (docs/object-storage.md)")
    Path out;

    @Option(names = "--tables", split = ",", paramLabel = "<t1,t2>",
            description = "tables to write (default all): TPC-H's region, nation, supplier, customer, part, partsupp,"
                    + " orders, lineitem; or TPC-DS's, e.g. store_sales,date_dim")
    List<String> tables;

    @Option(names = "--force", description = "replace the listed tables where the store already has them (the"
            + " other tables stay as they are)")
    boolean force;

    @Option(names = "--threads", paramLabel = "<n>", defaultValue = "2",
            description = "tables generated at the same time (default ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--skew", paramLabel = "<z>", converter = SkewConverter.class,
            description = "draw o_custkey and l_partkey (with l_suppkey) from a Zipf distribution with exponent z in"
                    + " (0, 4] instead of uniformly: at SF 1, z = 1 gives the top customer ~8%% of the orders, z = 1.5"
                    + " ~38%%; the keys still match their tables (default: dbgen's uniform rows)")
    TpchSkew skew;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws IOException {
        final List<TableGeneration.Job> selected = benchmark == Benchmark.TPCDS
                ? TableGeneration.tpcds(selectedTpcdsTables(), scaleFactor)
                : TableGeneration.tpch(TableGeneration.largestFirst(selectedTables(), scaleFactor), scaleFactor, skew);
        if (skew != null && benchmark == Benchmark.TPCDS) {
            throw new IllegalArgumentException("--skew draws TPC-H's foreign keys: leave it out with --benchmark tpcds");
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("--threads " + threads + " is not valid: use 1.." + MAX_THREADS);
        }
        if (benchmark == Benchmark.TPCDS) {
            TpcdsLoader.checkScaleFactor(scaleFactor);
        }
        if (ObjectStoreOptions.isObjectStorage(this.out)) {
            return ObjectStoreWriting.run(this.out, commandLine(), out,
                    dir -> writeInto(Store.open(dir), selected, out, err));
        }
        return writeInto(OutputDirectory.open(this.out), selected, out, err);
    }

    private int writeInto(final Store store, final List<TableGeneration.Job> selected, final PrintWriter out,
                          final PrintWriter err) {
        try (StopOnSignal signal = new StopOnSignal()) {
            final int code;
            try (StoreLock ignored = lock(store, err)) {
                final Set<String> replaced = checkTables(store, selected, err);
                code = generate(store, selected, replaced, signal, out, err);
            }
            out.flush();
            err.flush();
            return code;
        }
    }

    /** Refuses tables that would stay at another scale and listed tables the store has (unless --force); returns those replaced. */
    private Set<String> checkTables(final Store store, final List<TableGeneration.Job> selected,
                                    final PrintWriter err) {
        final StoreContents contents = store.contents();
        final Set<String> names = new TreeSet<>();
        for (final TableGeneration.Job t : selected) {
            names.add(t.name());
        }
        final Set<String> existing = new TreeSet<>();
        final Set<String> damaged = new TreeSet<>();
        for (final Path d : contents.damaged()) {
            damaged.add(d.getFileName().toString());
        }
        for (final String name : names) {
            if (contents.tables().contains(name) || damaged.contains(name)) {
                existing.add(name);
            }
        }
        if (benchmark == Benchmark.TPCDS) {
            final Map<String, String> other = TpcdsLoader.otherScales(store, scaleFactor, names);
            if (!other.isEmpty()) {
                final List<String> listed = new ArrayList<>();
                other.forEach((name, scale) -> listed.add(name + " at SF " + scale));
                throw new IllegalArgumentException("store " + this.out + " holds TPC-DS tables of another scale factor ("
                        + String.join(", ", listed) + "), which SF " + TpchScale.format(scaleFactor)
                        + " tables would not match: generate into another directory (`sluice gen --benchmark tpcds"
                        + " --sf " + TpchScale.format(scaleFactor) + " --out " + sibling() + "`)");
            }
        }
        final Map<String, TpchScale.Of> other = benchmark == Benchmark.TPCDS ? Map.of()
                : TpchScale.otherThan(store, scaleFactor, names);
        if (!other.isEmpty()) {
            final List<String> listed = new ArrayList<>();
            other.forEach((name, scale) -> listed.add(name + " at " + scale));
            final Path sibling = sibling();
            final StringBuilder hint = new StringBuilder("generate into another directory (`sluice gen --sf "
                    + TpchScale.format(scaleFactor) + " --out " + sibling
                    + (tables == null ? "" : " --tables " + String.join(",", names)) + "`)");
            TpchScale.common(store).ifPresent(theirs -> hint.append(" or use the store's scale factor (`")
                    .append(command(theirs, names, force || !existing.isEmpty())).append("`)"));
            throw new IllegalArgumentException("store " + this.out + " holds TPC-H tables of another scale factor ("
                    + String.join(", ", listed) + "), which SF " + TpchScale.format(scaleFactor)
                    + " tables would not match: " + hint);
        }
        if (!force && !existing.isEmpty()) {
            final Set<String> missing = new TreeSet<>(names);
            missing.removeAll(existing);
            throw new IllegalArgumentException("store " + this.out + " already has " + Plural.noun(existing.size(), "table")
                    + " " + String.join(", ", existing) + (damaged.isEmpty() ? "" : " (" + String.join(", ", damaged)
                    + " damaged)") + ": replace " + (existing.size() == 1 ? "it" : "them") + " with `"
                    + command(scaleFactor, existing, true) + "`"
                    + (missing.isEmpty() ? "" : ", or add only the others with `" + command(scaleFactor, missing, false)
                    + "`"));
        }
        final Set<String> untouchedDamaged = new TreeSet<>(damaged);
        untouchedDamaged.removeAll(names);
        if (!untouchedDamaged.isEmpty()) {
            err.println("gen: store " + this.out + " has damaged table directories (no manifest), left as they are: "
                    + String.join(", ", untouchedDamaged) + "; see `sluice inspect --store " + this.out + "`");
        }
        return existing;
    }

    /** This command with another scale factor and table list. */
    private String command(final double sf, final Set<String> names, final boolean withForce) {
        final int all = benchmark == Benchmark.TPCDS ? TpcdsTable.values().length : TpchTable.values().length;
        return "sluice gen " + (benchmark == Benchmark.TPCDS ? "--benchmark tpcds " : "") + "--sf "
                + TpchScale.format(sf) + " --out " + this.out
                + (names.size() == all ? "" : " --tables " + String.join(",", names))
                + (withForce ? " --force" : "") + (threads == 2 ? "" : " --threads " + threads);
    }

    /** A new directory beside {@code --out} for tables of this scale factor. */
    private Path sibling() {
        final Path absolute = this.out.toAbsolutePath().normalize();
        final String name = (benchmark == Benchmark.TPCDS ? "tpcds-sf" : "sf") + TpchScale.format(scaleFactor);
        final Path candidate = absolute.resolveSibling(name);
        return candidate.equals(absolute) ? absolute.resolveSibling(absolute.getFileName() + "-" + name) : candidate;
    }

    private int generate(final Store store, final List<TableGeneration.Job> selected, final Set<String> replaced,
                         final StopOnSignal signal, final PrintWriter out, final PrintWriter err) {
        final String[] names = new String[selected.size()];
        final long[] expected = new long[selected.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = selected.get(i).name();
            expected[i] = selected.get(i).expectedRows();
        }
        final long start = System.nanoTime();
        final GenProgress progress = new GenProgress(err, System.console() != null, System::nanoTime, names, expected);
        final TableGeneration.Outcome outcome;
        try {
            outcome = TableGeneration.run(store, selected, threads, force, signal::requested, progress);
        } catch (final OutOfMemoryError e) {
            return fail(err, "out of memory while generating (" + e.getMessage() + "): the TPC-H text pool alone"
                    + " takes 300 MiB of heap; give java more heap (e.g. SLUICE_JAVA_OPTS=-Xmx2g bin/sluice gen ...) or"
                    + " use --threads 1");
        } finally {
            progress.close();
        }
        if (signal.requested()) {
            final Set<String> keptOld = new TreeSet<>(outcome.unfinished());
            keptOld.retainAll(replaced);
            return fail(err, "stopped by a signal: "
                    + (outcome.unfinished().isEmpty() ? "every table was complete"
                            : String.join(", ", outcome.unfinished()) + " did not finish and nothing of "
                            + (outcome.unfinished().size() == 1 ? "it" : "them") + " is left")
                    + (keptOld.isEmpty() ? "" : " (the previous " + String.join(", ", keptOld) + " stay)")
                    + "; the store " + this.out + " keeps its complete tables "
                    + (store.tableNames().isEmpty() ? "(none)" : String.join(", ", store.tableNames())));
        }
        report(out, outcome.written(), replaced, store, (System.nanoTime() - start) / 1e9);
        if (skew != null) {
            reportSkew(out, skew, selected);
        }
        return 0;
    }

    private List<TpcdsTable> selectedTpcdsTables() {
        return selected("TPC-DS", TpcdsTable.values(), TpcdsTable::tableName);
    }

    private List<TpchTable> selectedTables() {
        return selected("TPC-H", TpchTable.values(), TpchTable::tableName);
    }

    /** The tables --tables names (all of them without it), in its order; the error lists every unknown name and the known ones. */
    private <T> List<T> selected(final String benchmark, final T[] all, final Function<T, String> nameOf) {
        if (tables == null || tables.isEmpty()) {
            return List.of(all);
        }
        final Set<T> chosen = new LinkedHashSet<>();
        final List<String> unknown = new ArrayList<>();
        for (final String name : tables) {
            final String trimmed = name.trim().toLowerCase(Locale.ROOT);
            T match = null;
            for (final T t : all) {
                if (nameOf.apply(t).equals(trimmed)) {
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
            final List<String> names = new ArrayList<>();
            for (final T t : all) {
                names.add(nameOf.apply(t));
            }
            throw new IllegalArgumentException("unknown " + benchmark + " table" + (unknown.size() > 1 ? "s " : " ")
                    + String.join(", ", unknown) + " in --tables: use " + String.join(",", names));
        }
        return new ArrayList<>(chosen);
    }

    private void reportSkew(final PrintWriter out, final TpchSkew zipf, final List<TableGeneration.Job> selected) {
        final List<String> heaviest = new ArrayList<>();
        if (selected.stream().anyMatch(j -> j.name().equals(TpchTable.ORDERS.tableName()))) {
            heaviest.add(String.format(Locale.ROOT, "the top customer places %.1f%% of the orders",
                    100 * zipf.topShare(TpchTable.ORDERS, scaleFactor)));
        }
        if (selected.stream().anyMatch(j -> j.name().equals(TpchTable.LINEITEM.tableName()))) {
            heaviest.add(String.format(Locale.ROOT, "the top part fills %.1f%% of the line items",
                    100 * zipf.topShare(TpchTable.LINEITEM, scaleFactor)));
        }
        out.println("  skew " + zipf + (heaviest.isEmpty() ? ": no table listed has a skewed key"
                : ": " + String.join(", ", heaviest)));
    }

    private void report(final PrintWriter out, final List<TableGeneration.Result> results, final Set<String> replaced,
                        final Store store, final double seconds) {
        long rows = 0;
        long bytes = 0;
        int nameWidth = "table".length();
        final Set<String> written = new TreeSet<>();
        for (final TableGeneration.Result r : results) {
            rows += r.rows();
            bytes += r.bytes();
            nameWidth = Math.max(nameWidth, r.name().length());
            written.add(r.name());
        }
        out.printf(Locale.ROOT, "generated %s at SF %s into %s: %s, %s in %.1f s (wall time); %s%n",
                Plural.of(results.size(), "table"), TpchScale.format(scaleFactor), ObjectStoreOptions.describe(this.out), Plural.of(rows, "row"), Sizes.bytes(bytes), seconds,
                PeakMemory.describe());
        final Set<String> untouched = new TreeSet<>(store.tableNames());
        untouched.removeAll(written);
        if (!replaced.isEmpty() || !untouched.isEmpty()) {
            out.println("  " + (replaced.isEmpty() ? "" : "replaced " + String.join(", ", replaced)
                    + (untouched.isEmpty() ? "" : "; ")) + (untouched.isEmpty() ? ""
                    : "left as they were: " + String.join(", ", untouched)));
        }
        final String format = "  %-" + nameWidth + "s  %12s  %7s  %10s%n";
        out.printf(Locale.ROOT, format, "table", "rows", "blocks", "size");
        for (final TableGeneration.Result r : results) {
            out.printf(Locale.ROOT, format, r.name(), r.rows(), r.blocks(), Sizes.bytes(r.bytes()));
        }
    }
}
