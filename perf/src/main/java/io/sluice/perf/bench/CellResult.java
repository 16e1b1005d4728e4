package io.sluice.perf.bench;

import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Strategy;
import io.sluice.shuffle.Topology;

/**
 * What {@code sluice bench} measured for one (query, topology, strategy, runtime filter mode) cell. The data-movement
 * numbers come from the last timed run (they do not change from run to run).
 *
 * @param query            the query's name
 * @param cluster          whether the CNs ran in this JVM or as processes of their own
 * @param topology         CNs x cores
 * @param strategy         the strategy asked for
 * @param runtimeFilters   the runtime filter mode it ran under
 * @param sluice           Sluice's timed runs; null when the cell failed before any
 * @param duckDb           DuckDB's timed runs of the query on the topology's total cores; null without DuckDB
 * @param rowsRemote       rows that crossed from one CN to another through Aeron
 * @param bytesRemote      bytes that crossed CNs (encoded block layout, the frame payloads)
 * @param rowsLocal        rows exchanged inside a CN
 * @param bytesLocal       bytes exchanged inside a CN
 * @param wholeBlockRoutes batches and blocks routed whole by their zonemap, without per-row work
 * @param splitBatches     batches the shuffle operators split row by row
 * @param filterRowsIn     probe rows the runtime filters tested
 * @param filterRowsRemoved of those, the rows they removed before any shuffle
 * @param filterBlocksSkipped probe blocks they skipped unread by their zonemaps
 * @param peakHeapBytes    peak heap of this JVM during a timed run above the heap after the GC before it, the highest of
 *                         its timed runs; -1 for CN processes, whose heaps are theirs
 * @param cnPeakRssBytes   the largest peak resident memory of the CNs' processes (this JVM's for embedded CNs)
 * @param bucketMaxOverMean rows in the fullest bucket over the mean bucket, in the least balanced exchange that sends
 *                         rows to their bucket's owner (1 is balanced; NaN when no exchange did)
 * @param decisions        the distribution of each join and group-by, e.g. {@code colocate,reuse_shuffle}
 * @param answer           whether the answers were equal to the reference's
 * @param detail           the first difference or the error; empty when the answer is {@link Answer#OK}
 */
public record CellResult(String query, ClusterKind cluster, Topology topology, Strategy strategy,
                         RuntimeFilterMode runtimeFilters, Timings sluice,
                         Timings duckDb, long rowsRemote, long bytesRemote, long rowsLocal, long bytesLocal,
                         long wholeBlockRoutes, long splitBatches, long filterRowsIn, long filterRowsRemoved,
                         long filterBlocksSkipped, long peakHeapBytes, long cnPeakRssBytes,
                         double bucketMaxOverMean, String decisions, Answer answer, String detail) {
    /** How a cell's answers compared with the reference (DuckDB, or without it the query's first cell). */
    public enum Answer {
        /** Every run's answer equal to the reference. */
        OK,
        /** At least one run's answer differed. */
        MISMATCH,
        /** The query failed. */
        ERROR
    }

    /** Sluice's median over DuckDB's; NaN without DuckDB or without Sluice timings. */
    public double ratioToDuckDb() {
        return sluice == null || duckDb == null ? Double.NaN : sluice.medianMs() / duckDb.medianMs();
    }

    /** Whole routes over all shuffled batches and blocks; NaN when nothing was shuffled. */
    public double wholeBlockRatio() {
        final long all = wholeBlockRoutes + splitBatches;
        return all == 0 ? Double.NaN : (double) wholeBlockRoutes / all;
    }

    /** The cell's key as text, e.g. {@code q4 3x2 colocate}, or {@code q4 3x2 processes colocate}. */
    public String label() {
        return label(query, cluster, topology, strategy);
    }

    /** A cell's key as text, e.g. {@code q4 3x2 colocate}, or {@code q4 3x2 processes colocate}. */
    static String label(final String query, final ClusterKind cluster, final Topology topology,
                        final Strategy strategy) {
        return query + " " + topology + (cluster == ClusterKind.EMBEDDED ? "" : " " + cluster.cliName()) + " "
                + strategy.cliName();
    }

    /** The label with the runtime filter mode, e.g. {@code q4 3x2 colocate filters=global}. */
    public String label(final boolean withRuntimeFilters) {
        return withRuntimeFilters ? label() + " filters=" + runtimeFilters.cliName() : label();
    }
}
