package io.sluice.perf.bench;

import java.util.List;
import java.util.Locale;

/**
 * {@code results.csv}: one RFC 4180 row per cell under a header row. Times are milliseconds with
 * three decimals, bytes and rows are integers, ratios have four decimals; a value that does not
 * apply (DuckDB not run, nothing shuffled, a failed query) is an empty field.
 */
public final class BenchCsv {
    /** The header's columns, in order. */
    public static final List<String> COLUMNS = List.of("query", "cluster", "topology", "cn", "cores_per_cn", "strategy",
            "runtime_filters", "runs",
            "warmup", "median_ms", "min_ms", "max_ms", "p50_ms", "p90_ms", "p99_ms", "duckdb_median_ms",
            "duckdb_min_ms", "duckdb_max_ms", "ratio_to_duckdb", "rows_remote", "bytes_remote", "rows_local",
            "bytes_local", "whole_block_routes", "split_batches", "whole_block_ratio", "bytes_remote_vs_shuffle_hash",
            "filter_rows_in", "filter_rows_removed", "filter_blocks_skipped",
            "peak_heap_bytes", "cn_peak_rss_bytes", "bucket_max_over_mean", "decisions", "answer", "detail");

    private BenchCsv() {
    }

    /** The file's text, lines ending in CRLF. */
    public static String of(final BenchReport report) {
        final StringBuilder sb = new StringBuilder(String.join(",", COLUMNS)).append("\r\n");
        for (final CellResult c : report.cells()) {
            final Timings s = c.sluice();
            final Timings d = c.duckDb();
            final boolean ran = s != null;
            final String[] fields = {
                c.query(), c.cluster().cliName(), c.topology().toString(), Integer.toString(c.topology().cnCount()),
                Integer.toString(c.topology().coresPerCn()), c.strategy().cliName(), c.runtimeFilters().cliName(),
                Integer.toString(report.spec().runs()), Integer.toString(report.spec().warmup()),
                ran ? ms(s.medianMs()) : "", ran ? ms(s.minMs()) : "", ran ? ms(s.maxMs()) : "",
                ran ? ms(s.p50Ms()) : "", ran ? ms(s.p90Ms()) : "", ran ? ms(s.p99Ms()) : "",
                d != null ? ms(d.medianMs()) : "", d != null ? ms(d.minMs()) : "", d != null ? ms(d.maxMs()) : "",
                ratio(c.ratioToDuckDb()),
                ran ? Long.toString(c.rowsRemote()) : "", ran ? Long.toString(c.bytesRemote()) : "",
                ran ? Long.toString(c.rowsLocal()) : "", ran ? Long.toString(c.bytesLocal()) : "",
                ran ? Long.toString(c.wholeBlockRoutes()) : "", ran ? Long.toString(c.splitBatches()) : "",
                ratio(c.wholeBlockRatio()), ratio(report.bytesVsShuffleHash(c)),
                ran ? Long.toString(c.filterRowsIn()) : "", ran ? Long.toString(c.filterRowsRemoved()) : "",
                ran ? Long.toString(c.filterBlocksSkipped()) : "",
                ran && c.peakHeapBytes() >= 0 ? Long.toString(c.peakHeapBytes()) : "",
                ran && c.cnPeakRssBytes() >= 0 ? Long.toString(c.cnPeakRssBytes()) : "", ratio(c.bucketMaxOverMean()),
                c.decisions(), c.answer().name(),
                c.detail(),
            };
            for (int i = 0; i < fields.length; i++) {
                sb.append(i == 0 ? "" : ",").append(field(fields[i]));
            }
            sb.append("\r\n");
        }
        return sb.toString();
    }

    /** Milliseconds with three decimals. */
    static String ms(final double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /** A ratio with four decimals, or empty for NaN. */
    static String ratio(final double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
    }

    /** RFC 4180: quote a field holding a comma, quote, CR or LF, doubling its quotes. */
    static String field(final String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
