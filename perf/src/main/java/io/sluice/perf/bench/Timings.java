package io.sluice.perf.bench;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * The wall times of one cell's timed runs in milliseconds: median, min and max computed exactly
 * from the runs, and the 50th, 90th and 99th percentiles of an HdrHistogram of them (microsecond
 * resolution, three significant digits; with few runs the high percentiles are the slowest run).
 *
 * @param runs     number of timed runs
 * @param medianMs the median run (the mean of the two middle runs for an even count)
 * @param minMs    the fastest run
 * @param maxMs    the slowest run
 * @param p50Ms    50th percentile from the histogram
 * @param p90Ms    90th percentile from the histogram
 * @param p99Ms    99th percentile from the histogram
 */
public record Timings(int runs, double medianMs, double minMs, double maxMs, double p50Ms, double p90Ms,
                     double p99Ms) {
    /** Longest run the histogram records: one hour, in microseconds. */
    private static final long HIGHEST_MICROS = 3_600_000_000L;

    /** The timings of runs given in nanoseconds. */
    public static Timings ofNanos(final long[] nanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("timings need at least one run");
        }
        final double[] ms = new double[nanos.length];
        final Histogram histogram = new Histogram(HIGHEST_MICROS, 3);
        for (int i = 0; i < nanos.length; i++) {
            ms[i] = nanos[i] / 1e6;
            histogram.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, nanos[i] / 1_000)));
        }
        final double[] sorted = ms.clone();
        Arrays.sort(sorted);
        return new Timings(nanos.length, median(ms), sorted[0], sorted[sorted.length - 1],
                histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(90) / 1e3,
                histogram.getValueAtPercentile(99) / 1e3);
    }

    /** The median of some values: the middle one, or the mean of the two middle ones. */
    public static double median(final double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
