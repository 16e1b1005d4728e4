package io.sluice.perf.bench;

import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Strategy;
import io.sluice.shuffle.Topology;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A finished {@code sluice bench} run as its reports see it: the spec, every cell, and where and
 * how it ran. The derived numbers every report shows the same way live here.
 *
 * @param spec        what was measured
 * @param cells       one result per (query, cluster, topology, strategy, runtime filter mode), in that order
 * @param startedAt   when the run started, ISO-8601 in UTC
 * @param machine     processors, Java version and maximum heap, in words
 * @param wallSeconds wall time of the whole run, data generation and DuckDB loading included
 * @param memory      the process's peak memory, in words (e.g. {@code peak RSS 1200 MiB})
 */
public record BenchReport(BenchSpec spec, List<CellResult> cells, String startedAt, String machine,
                          double wallSeconds, String memory) {
    /** The name of the DuckDB series in tables and charts. */
    public static final String DUCKDB = "duckdb";

    public BenchReport {
        cells = List.copyOf(cells);
    }

    /** Cells whose answers differed from the reference or that failed. */
    public List<CellResult> failures() {
        final List<CellResult> failed = new ArrayList<>();
        for (final CellResult c : cells) {
            if (c.answer() != CellResult.Answer.OK) {
                failed.add(c);
            }
        }
        return failed;
    }

    /** The cell of a query, cluster, topology and strategy under the spec's first runtime filter mode, or null. */
    public CellResult cell(final String query, final ClusterKind cluster, final Topology topology,
                           final Strategy strategy) {
        return cell(query, cluster, topology, strategy, spec.runtimeFilterModes().get(0));
    }

    /** The cell of a query, cluster, topology, strategy and runtime filter mode, or null. */
    public CellResult cell(final String query, final ClusterKind cluster, final Topology topology,
                           final Strategy strategy, final RuntimeFilterMode mode) {
        for (final CellResult c : cells) {
            if (c.query().equals(query) && c.cluster() == cluster && c.topology().equals(topology)
                    && c.strategy() == strategy && c.runtimeFilters() == mode) {
                return c;
            }
        }
        return null;
    }

    /**
     * How reports name a cluster and topology: the topology alone when every CN ran in this JVM (as
     * before there were CN processes), else with the cluster, e.g. {@code 3x2 processes}.
     */
    public String shapeName(final ClusterKind cluster, final Topology topology) {
        return spec.clusters().equals(List.of(ClusterKind.EMBEDDED)) ? topology.toString()
                : topology + " " + cluster.cliName();
    }

    /**
     * Bytes this cell moved across CNs over what a plain hash shuffle moved for the same query
     * and topology; NaN when shuffle-hash was not run, failed, or moved nothing.
     */
    public double bytesVsShuffleHash(final CellResult cell) {
        final CellResult hash = cell(cell.query(), cell.cluster(), cell.topology(), Strategy.SHUFFLE_HASH,
                cell.runtimeFilters());
        if (hash == null || hash.answer() == CellResult.Answer.ERROR || hash.bytesRemote() == 0
                || cell.answer() == CellResult.Answer.ERROR) {
            return Double.NaN;
        }
        return (double) cell.bytesRemote() / hash.bytesRemote();
    }

    /** The topologies ordered by CN count, then cores per CN (the x axis of the scaling chart). */
    public List<Topology> topologiesByCnCount() {
        final List<Topology> sorted = new ArrayList<>(spec.topologies());
        sorted.sort(Comparator.comparingInt(Topology::cnCount).thenComparingInt(Topology::coresPerCn));
        return sorted;
    }

    /** The topologies with more than one CN, in the spec's order: the ones where bytes can cross CNs. */
    public List<Topology> multiCnTopologies() {
        final List<Topology> multi = new ArrayList<>();
        for (final Topology t : spec.topologies()) {
            if (t.cnCount() > 1) {
                multi.add(t);
            }
        }
        return multi;
    }

    /** The scale factor as written, e.g. {@code 0.1}. */
    public String scale() {
        return BigDecimal.valueOf(spec.scaleFactor()).stripTrailingZeros().toPlainString();
    }
}
