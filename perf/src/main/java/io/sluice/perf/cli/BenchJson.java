package io.sluice.perf.cli;

import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Strategy;
import io.sluice.perf.bench.BenchReport;
import io.sluice.perf.bench.CellResult;
import io.sluice.perf.bench.ClusterKind;
import io.sluice.perf.bench.Timings;
import io.sluice.perf.tpch.Query;
import io.sluice.shuffle.Topology;
import java.util.Locale;

/**
 * {@code results.json} of {@code sluice bench}: one object with the run's settings
 * ({@code scale_factor}, {@code runs}, {@code warmup}, {@code vs_duckdb}, {@code queries},
 * {@code topologies}, {@code strategies}, {@code started_at}, {@code machine},
 * {@code wall_seconds}, {@code memory}) and {@code cells}, one object per (query, topology,
 * strategy) with the same values as a row of {@code results.csv}: times in {@code sluice_ms} and
 * {@code duckdb_ms} objects ({@code median}, {@code min}, {@code max}, {@code p50}, {@code p90},
 * {@code p99}), null where a value does not apply.
 */
final class BenchJson {
    private BenchJson() {
    }

    static String of(final BenchReport report) {
        final JsonWriter json = new JsonWriter().beginObject()
                .name("scale_factor").number(report.scale())
                .name("runs").value(report.spec().runs())
                .name("warmup").value(report.spec().warmup())
                .name("vs_duckdb").value(report.spec().vsDuckDb())
                .name("network").value(report.spec().network().name().toLowerCase(Locale.ROOT))
                .name("queries").beginArray();
        for (final Query q : report.spec().queries()) {
            json.value(q.name());
        }
        json.endArray().name("topologies").beginArray();
        for (final Topology t : report.spec().topologies()) {
            json.value(t.toString());
        }
        json.endArray().name("strategies").beginArray();
        for (final Strategy s : report.spec().strategies()) {
            json.value(s.cliName());
        }
        json.endArray().name("runtime_filters").beginArray();
        for (final RuntimeFilterMode m : report.spec().runtimeFilterModes()) {
            json.value(m.cliName());
        }
        json.endArray().name("clusters").beginArray();
        for (final ClusterKind k : report.spec().clusters()) {
            json.value(k.cliName());
        }
        json.endArray()
                .name("started_at").value(report.startedAt())
                .name("machine").value(report.machine())
                .name("wall_seconds").number(decimal(report.wallSeconds(), 1))
                .name("memory").value(report.memory())
                .name("cells").beginArray();
        for (final CellResult c : report.cells()) {
            final boolean ran = c.sluice() != null;
            json.beginObject()
                    .name("query").value(c.query())
                    .name("cluster").value(c.cluster().cliName())
                    .name("topology").value(c.topology().toString())
                    .name("cn").value(c.topology().cnCount())
                    .name("cores_per_cn").value(c.topology().coresPerCn())
                    .name("strategy").value(c.strategy().cliName())
                    .name("runtime_filters").value(c.runtimeFilters().cliName())
                    .name("sluice_ms");
            timings(json, c.sluice());
            json.name("duckdb_ms");
            timings(json, c.duckDb());
            json.name("ratio_to_duckdb");
            ratio(json, c.ratioToDuckDb());
            count(json.name("rows_remote"), ran, c.rowsRemote());
            count(json.name("bytes_remote"), ran, c.bytesRemote());
            count(json.name("rows_local"), ran, c.rowsLocal());
            count(json.name("bytes_local"), ran, c.bytesLocal());
            count(json.name("whole_block_routes"), ran, c.wholeBlockRoutes());
            count(json.name("split_batches"), ran, c.splitBatches());
            json.name("whole_block_ratio");
            ratio(json, c.wholeBlockRatio());
            json.name("bytes_remote_vs_shuffle_hash");
            ratio(json, report.bytesVsShuffleHash(c));
            count(json.name("filter_rows_in"), ran, c.filterRowsIn());
            count(json.name("filter_rows_removed"), ran, c.filterRowsRemoved());
            count(json.name("filter_blocks_skipped"), ran, c.filterBlocksSkipped());
            count(json.name("peak_heap_bytes"), ran && c.peakHeapBytes() >= 0, c.peakHeapBytes());
            count(json.name("cn_peak_rss_bytes"), ran && c.cnPeakRssBytes() >= 0, c.cnPeakRssBytes());
            json.name("bucket_max_over_mean");
            ratio(json, c.bucketMaxOverMean());
            json.name("decisions").value(c.decisions())
                    .name("answer").value(c.answer().name())
                    .name("detail").value(c.detail())
                    .endObject();
        }
        return json.endArray().endObject().toString();
    }

    private static void timings(final JsonWriter json, final Timings t) {
        if (t == null) {
            json.nullValue();
            return;
        }
        json.beginObject()
                .name("median").number(decimal(t.medianMs(), 3))
                .name("min").number(decimal(t.minMs(), 3))
                .name("max").number(decimal(t.maxMs(), 3))
                .name("p50").number(decimal(t.p50Ms(), 3))
                .name("p90").number(decimal(t.p90Ms(), 3))
                .name("p99").number(decimal(t.p99Ms(), 3))
                .endObject();
    }

    private static void ratio(final JsonWriter json, final double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            json.nullValue();
        } else {
            json.number(decimal(value, 4));
        }
    }

    private static void count(final JsonWriter json, final boolean present, final long value) {
        if (present) {
            json.value(value);
        } else {
            json.nullValue();
        }
    }

    private static String decimal(final double value, final int digits) {
        return String.format(Locale.ROOT, "%." + digits + "f", value);
    }
}
