package io.sluice.perf.bench;

import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Strategy;
import io.sluice.perf.text.Plural;
import io.sluice.perf.tpch.Query;
import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code summary.md}, the report a person reads first: the verdict on the answers, then per
 * topology the median time of each query under each strategy with its ratio to DuckDB, then per
 * multi-CN topology the bytes each strategy moved across CNs, then every cell with all its numbers,
 * and a legend. Markdown tables, so the file reads as text and renders on a forge.
 */
public final class BenchSummary {
    private BenchSummary() {
    }

    /** The file's text. */
    public static String of(final BenchReport report) {
        final StringBuilder sb = new StringBuilder(overview(report));
        allCells(report, sb);
        legend(sb);
        return sb.toString();
    }

    /** The head of the file, what {@code sluice bench} prints: the run, the verdict and the per-topology tables. */
    public static String overview(final BenchReport report) {
        final BenchSpec spec = report.spec();
        final StringBuilder sb = new StringBuilder("# sluice bench\n\n");
        sb.append(String.format(Locale.ROOT, "SF %s, %s x %s (%s) x %s, %s"
                        + " after %s per cell, %s, %s.%n%n", report.scale(), Plural.of(spec.queries().size(), "query"),
                Plural.of(spec.topologies().size(), "topology"), join(spec.topologies()),
                Plural.of(spec.strategies().size(), "strategy"), Plural.of(spec.runs(), "timed run"),
                Plural.of(spec.warmup(), "warm-up"), clusters(spec),
                spec.vsDuckDb() ? "DuckDB on the same rows with the topology's total cores as threads"
                        : "without DuckDB"));
        sb.append(String.format(Locale.ROOT, "Started %s on %s; took %s; %s.%n%n", report.startedAt(),
                report.machine(), clock(report.wallSeconds()), report.memory()));
        verdict(report, sb);
        for (final ClusterKind k : spec.clusters()) {
            for (final Topology t : spec.topologies()) {
                timePivot(report, k, t, sb);
            }
        }
        for (final ClusterKind k : spec.clusters()) {
            for (final Topology t : report.multiCnTopologies()) {
                bytesPivot(report, k, t, sb);
            }
        }
        if (spec.comparesRuntimeFilters()) {
            for (final ClusterKind k : spec.clusters()) {
                for (final Topology t : spec.topologies()) {
                    runtimeFilterComparison(report, k, t, sb);
                }
            }
        }
        return sb.toString();
    }

    private static String clusters(final BenchSpec spec) {
        final List<String> kinds = new ArrayList<>();
        for (final ClusterKind k : spec.clusters()) {
            kinds.add(k == ClusterKind.EMBEDDED ? "CNs in one JVM over aeron:" + spec.network().name().toLowerCase(Locale.ROOT)
                    : "CN processes over UDP");
        }
        return String.join(" and ", kinds);
    }

    private static void verdict(final BenchReport report, final StringBuilder sb) {
        final List<CellResult> failures = report.failures();
        final String reference = report.spec().vsDuckDb() ? "DuckDB's" : "the first strategy's (no DuckDB)";
        if (failures.isEmpty()) {
            sb.append("**Answers: every Sluice answer equal to ").append(reference).append("** (")
                    .append(report.cells().size() * (long) (report.spec().runs() + report.spec().warmup()))
                    .append(" runs).\n\n");
            return;
        }
        sb.append("**ANSWERS DIFFER OR QUERIES FAILED in ").append(failures.size()).append(" of ")
                .append(report.cells().size()).append(" cells** (reference: ").append(reference).append("):\n\n");
        for (final CellResult c : failures) {
            sb.append("- **").append(c.answer()).append("** ").append(c.label(report.spec().comparesRuntimeFilters()))
                    .append(": ")
                    .append(escape(c.detail())).append('\n');
        }
        sb.append('\n');
    }

    private static void timePivot(final BenchReport report, final ClusterKind cluster, final Topology topology,
                                  final StringBuilder sb) {
        final BenchSpec spec = report.spec();
        sb.append("## Median ms on ").append(report.shapeName(cluster, topology))
                .append(spec.vsDuckDb() ? " (x DuckDB)" : "").append("\n\n");
        sb.append("| query |");
        if (spec.vsDuckDb()) {
            sb.append(" DuckDB |");
        }
        for (final Strategy s : spec.strategies()) {
            sb.append(' ').append(s.cliName()).append(" |");
        }
        sb.append('\n').append("|---|");
        sb.append("---:|".repeat(spec.strategies().size() + (spec.vsDuckDb() ? 1 : 0))).append('\n');
        for (int q = 0; q < spec.queries().size(); q++) {
            final String query = spec.queries().get(q).name();
            sb.append("| ").append(query).append(" |");
            if (spec.vsDuckDb()) {
                final CellResult any = report.cell(query, cluster, topology, spec.strategies().get(0));
                sb.append(' ').append(any == null || any.duckDb() == null ? "-" : withSpread(any.duckDb()))
                        .append(" |");
            }
            for (final Strategy s : spec.strategies()) {
                final CellResult c = report.cell(query, cluster, topology, s);
                sb.append(' ').append(timeCell(c)).append(" |");
            }
            sb.append('\n');
        }
        if (spec.vsDuckDb()) {
            sb.append("| geometric mean | |");
            for (final Strategy s : spec.strategies()) {
                sb.append(' ').append(ratio(geometricMeanRatio(report, cluster, topology, s))).append(" |");
            }
            sb.append('\n');
        }
        sb.append('\n');
    }

    /** The geometric mean of a strategy's ratios to DuckDB on a topology, over the queries that ran; NaN if none. */
    static double geometricMeanRatio(final BenchReport report, final ClusterKind cluster, final Topology topology,
                                     final Strategy strategy) {
        double logSum = 0;
        int n = 0;
        for (int q = 0; q < report.spec().queries().size(); q++) {
            final CellResult c = report.cell(report.spec().queries().get(q).name(), cluster, topology, strategy);
            if (c != null && !Double.isNaN(c.ratioToDuckDb())) {
                logSum += Math.log(c.ratioToDuckDb());
                n++;
            }
        }
        return n == 0 ? Double.NaN : Math.exp(logSum / n);
    }

    private static String timeCell(final CellResult c) {
        if (c == null || c.sluice() == null) {
            return c == null ? "-" : "**ERROR**";
        }
        final String mark = c.answer() == CellResult.Answer.MISMATCH ? " **MISMATCH**" : "";
        final double ratio = c.ratioToDuckDb();
        return withSpread(c.sluice()) + (Double.isNaN(ratio) ? "" : " (" + ratio(ratio) + ")") + mark;
    }

    /** A median with its spread: half the distance from the fastest to the slowest run, relative to it. */
    static String withSpread(final Timings t) {
        final double spread = t.medianMs() > 0 ? (t.maxMs() - t.minMs()) / 2 / t.medianMs() : 0;
        return ms(t.medianMs()) + (t.runs() < 2 ? "" : String.format(Locale.ROOT, " ±%.0f%%", spread * 100));
    }

    private static void bytesPivot(final BenchReport report, final ClusterKind cluster, final Topology topology,
                                   final StringBuilder sb) {
        final BenchSpec spec = report.spec();
        sb.append("## MiB crossing CNs on ").append(report.shapeName(cluster, topology)).append("\n\n| query |");
        for (final Strategy s : spec.strategies()) {
            sb.append(' ').append(s.cliName()).append(" |");
        }
        sb.append("\n|---|").append("---:|".repeat(spec.strategies().size())).append('\n');
        for (int q = 0; q < spec.queries().size(); q++) {
            final String query = spec.queries().get(q).name();
            sb.append("| ").append(query).append(" |");
            for (final Strategy s : spec.strategies()) {
                final CellResult c = report.cell(query, cluster, topology, s);
                sb.append(' ').append(c == null || c.sluice() == null ? "-" : mib(c.bytesRemote())).append(" |");
            }
            sb.append('\n');
        }
        sb.append('\n');
    }

    /**
     * Per query and strategy, the median (min-max) under each runtime filter mode, each later mode's median over
     * the first's, and what the filters did: probe rows removed, blocks skipped, MiB across CNs.
     */
    private static void runtimeFilterComparison(final BenchReport report, final ClusterKind cluster,
                                                final Topology topology, final StringBuilder sb) {
        final BenchSpec spec = report.spec();
        final List<RuntimeFilterMode> modes = spec.runtimeFilterModes();
        final RuntimeFilterMode first = modes.get(0);
        sb.append("## Runtime filters on ").append(report.shapeName(cluster, topology))
                .append(": median ms (min-max), ratio to ").append(first.cliName()).append("\n\n| query | strategy |");
        for (final RuntimeFilterMode m : modes) {
            sb.append(' ').append(m.cliName()).append(" |");
        }
        for (final RuntimeFilterMode m : modes.subList(1, modes.size())) {
            sb.append(' ').append(m.cliName()).append(" / ").append(first.cliName()).append(" |");
        }
        sb.append(" rows removed | blocks skipped | MiB across CNs |\n|---|---|")
                .append("---:|".repeat(2 * modes.size() - 1)).append("---:|---:|---:|\n");
        for (final Query q : spec.queries()) {
            for (final Strategy s : spec.strategies()) {
                final CellResult base = report.cell(q.name(), cluster, topology, s, first);
                sb.append("| ").append(q.name()).append(" | ").append(s.cliName()).append(" |");
                final List<String> removed = new ArrayList<>();
                final List<String> skipped = new ArrayList<>();
                final List<String> moved = new ArrayList<>();
                for (final RuntimeFilterMode m : modes) {
                    final CellResult c = report.cell(q.name(), cluster, topology, s, m);
                    final boolean ran = c != null && c.sluice() != null;
                    sb.append(' ').append(ran ? ms(c.sluice().medianMs()) + " (" + ms(c.sluice().minMs()) + "-"
                            + ms(c.sluice().maxMs()) + ")" : "-").append(" |");
                    removed.add(ran ? Long.toString(c.filterRowsRemoved()) : "-");
                    skipped.add(ran ? Long.toString(c.filterBlocksSkipped()) : "-");
                    moved.add(ran ? mib(c.bytesRemote()) : "-");
                }
                for (final RuntimeFilterMode m : modes.subList(1, modes.size())) {
                    final CellResult c = report.cell(q.name(), cluster, topology, s, m);
                    final boolean both = base != null && base.sluice() != null && c != null && c.sluice() != null;
                    sb.append(' ').append(both ? ratio(c.sluice().medianMs() / base.sluice().medianMs()) : "-")
                            .append(" |");
                }
                sb.append(' ').append(String.join(" / ", removed)).append(" | ").append(String.join(" / ", skipped))
                        .append(" | ").append(String.join(" / ", moved)).append(" |\n");
            }
        }
        sb.append("| geometric mean | |").append(" |".repeat(modes.size()));
        for (final RuntimeFilterMode m : modes.subList(1, modes.size())) {
            sb.append(' ').append(ratio(geometricMeanRatio(report, cluster, topology, m, first))).append(" |");
        }
        sb.append(" | | |\n\n");
    }

    /**
     * The geometric mean over the queries and strategies that ran under both of a mode's median over another
     * mode's; NaN if none.
     */
    static double geometricMeanRatio(final BenchReport report, final ClusterKind cluster, final Topology topology,
                                     final RuntimeFilterMode mode, final RuntimeFilterMode base) {
        double logSum = 0;
        int n = 0;
        for (final Query q : report.spec().queries()) {
            for (final Strategy s : report.spec().strategies()) {
                final CellResult a = report.cell(q.name(), cluster, topology, s, mode);
                final CellResult b = report.cell(q.name(), cluster, topology, s, base);
                if (a != null && b != null && a.sluice() != null && b.sluice() != null) {
                    logSum += Math.log(a.sluice().medianMs() / b.sluice().medianMs());
                    n++;
                }
            }
        }
        return n == 0 ? Double.NaN : Math.exp(logSum / n);
    }

    private static void allCells(final BenchReport report, final StringBuilder sb) {
        sb.append("## Every cell\n\n");
        sb.append("| query | topology | strategy | median ms | min | max | p90 | p99 | DuckDB ms | vs DuckDB"
                + " | rows across CNs | MiB across CNs | bytes vs shuffle-hash | whole-block routes"
                + " | rows filtered | blocks skipped | peak heap MiB | CN peak RSS MiB | bucket max/mean | plan | answer |\n");
        sb.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (final CellResult c : report.cells()) {
            final Timings s = c.sluice();
            final boolean ran = s != null;
            sb.append("| ").append(c.query()).append(" | ").append(report.shapeName(c.cluster(), c.topology()))
                    .append(" | ")
                    .append(c.strategy().cliName())
                    .append(report.spec().comparesRuntimeFilters() ? ", filters " + c.runtimeFilters().cliName() : "")
                    .append(" | ")
                    .append(ran ? ms(s.medianMs()) : "-").append(" | ")
                    .append(ran ? ms(s.minMs()) : "-").append(" | ")
                    .append(ran ? ms(s.maxMs()) : "-").append(" | ")
                    .append(ran ? ms(s.p90Ms()) : "-").append(" | ")
                    .append(ran ? ms(s.p99Ms()) : "-").append(" | ")
                    .append(c.duckDb() == null ? "-" : ms(c.duckDb().medianMs())).append(" | ")
                    .append(ratio(c.ratioToDuckDb())).append(" | ")
                    .append(ran ? Long.toString(c.rowsRemote()) : "-").append(" | ")
                    .append(ran ? mib(c.bytesRemote()) : "-").append(" | ")
                    .append(ratio(report.bytesVsShuffleHash(c))).append(" | ")
                    .append(percent(c.wholeBlockRatio())).append(" | ")
                    .append(ran ? c.filterRowsRemoved() + " of " + c.filterRowsIn() : "-").append(" | ")
                    .append(ran ? Long.toString(c.filterBlocksSkipped()) : "-").append(" | ")
                    .append(ran && c.peakHeapBytes() >= 0 ? mib(c.peakHeapBytes()) : "-").append(" | ")
                    .append(ran && c.cnPeakRssBytes() >= 0 ? mib(c.cnPeakRssBytes()) : "-").append(" | ")
                    .append(ratio(c.bucketMaxOverMean())).append(" | ")
                    .append(c.decisions().isEmpty() ? "-" : c.decisions().replace(",", ", ")).append(" | ")
                    .append(c.answer() == CellResult.Answer.OK ? "ok" : "**" + c.answer() + "**").append(" |\n");
        }
        sb.append('\n');
    }

    private static void legend(final StringBuilder sb) {
        sb.append("""
                ## Reading this

                - **median ms**: wall time of one run from the call to the result on the coordinator, the median of
                  the timed runs; a TPC-H query (q1..q22) runs from its SQL text, and planning that text is part of
                  each run's time, as DuckDB's planning is part of its own; min, max and the HdrHistogram percentiles p90 and p99 of the same runs. **±N%**
                  next to a median is the spread of its runs: half the distance from the fastest to the slowest,
                  relative to the median. Before the first timed run every query ran once under every strategy
                  and in DuckDB; then each round ran DuckDB and every strategy once, in an order that turned by one
                  place from round to round, so none always ran first or after the same other one.
                - **DuckDB ms**, **vs DuckDB**: DuckDB's median for the same SQL over the same rows (in-memory,
                  threads = CNs x cores, all rows fetched), and Sluice's median divided by it: below 1 Sluice is
                  faster. DuckDB runs in one process with no network; Sluice's CNs exchange batches through Aeron.
                  The **geometric mean** row sums a strategy up over the queries of a topology.
                - **rows / MiB across CNs**: what went from one CN to another through Aeron (batches in the block
                  layout), summed over the query's exchanges; rows kept inside a CN are not counted. Zero on one CN.
                - **bytes vs shuffle-hash**: bytes across CNs over a plain hash shuffle's for the same query and
                  topology (about (n-1)/n of the shuffled rows cross n CNs under a hash shuffle).
                - **whole-block routes**: share of the shuffled batches and colocated blocks routed whole by their
                  zonemap, without per-row work; - when nothing was shuffled.
                - **rows filtered**, **blocks skipped**: probe rows the runtime filters removed of those they tested,
                  before any shuffle, and probe blocks they skipped unread because the block's zonemap lies outside
                  the filter (`--runtime-filters`, default global).
                - **peak heap MiB**: the highest heap use sampled every millisecond during one of the cell's timed
                  runs, minus the heap in use after the GC just before that run; it includes garbage not yet
                  collected (an upper
                  bound) and leaves out native memory (Aeron's buffers, DuckDB); - for CN processes, whose heaps
                  are their own.
                - **CN peak RSS MiB**: the largest resident-memory high-water mark (VmHWM) of the CNs' processes
                  at the end of the cell's last run; for CNs in this JVM, this JVM's.
                - **embedded** CNs are groups of threads in the bench's JVM; **processes** are one `sluice cn` JVM
                  per CN with its own media driver, talking UDP on loopback, coordinated by the bench's JVM.
                - **plan**: the distribution of each join and group-by (auto picks them from zonemap statistics).
                """);
    }

    static String ms(final double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }

    static String ratio(final double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2fx", value);
    }

    static String mib(final long bytes) {
        final double m = bytes / (1024.0 * 1024.0);
        if (bytes == 0) {
            return "0";
        }
        if (m < 0.01) {
            return "<0.01";
        }
        return m >= 10 ? String.format(Locale.ROOT, "%.0f", m) : String.format(Locale.ROOT, "%.2f", m);
    }

    private static String percent(final double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.0f%%", value * 100);
    }

    private static String join(final List<Topology> topologies) {
        final StringBuilder sb = new StringBuilder();
        for (final Topology t : topologies) {
            sb.append(sb.length() == 0 ? "" : ", ").append(t);
        }
        return sb.toString();
    }

    private static String clock(final double seconds) {
        final long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    private static String escape(final String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
