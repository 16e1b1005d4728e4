package io.sluice.dispatch.control;

import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.shuffle.Topology;
import java.util.List;

/**
 * What one distributed query moved, summed over every CN: per exchange and in total, the rows and
 * bytes that went from one CN to another through Aeron (remote) and those delivered inside a CN
 * (local), plus how the shuffle operators routed batches. Bytes are the encoded block layout:
 * the frame payloads for remote rows, the same encoding's size for local ones.
 *
 * @param query            the query's name
 * @param strategy         the strategy asked for
 * @param topology         CNs x cores
 * @param wallMillis       wall time from start to the result on the coordinator
 * @param wholeBlockRoutes batches routed whole by their zonemap: by shuffle operators, and blocks
 *                         colocated scans read whole into their bucket
 * @param splitBatches     batches the shuffle operators split row by row
 * @param exchanges        each exchange
 * @param runtimeFilters   each runtime filter, summed over the CNs
 */
public record QueryStats(String query, String strategy, Topology topology, long wallMillis, long wholeBlockRoutes,
        long splitBatches, List<ExchangeStats> exchanges, List<RuntimeFilterStats> runtimeFilters) {
    public QueryStats {
        exchanges = List.copyOf(exchanges);
        runtimeFilters = List.copyOf(runtimeFilters);
    }

    /** Probe rows runtime filters tested, summed over the filters. */
    public long filterRowsIn() {
        return runtimeFilters.stream().mapToLong(RuntimeFilterStats::probeRowsIn).sum();
    }

    /** Probe rows runtime filters removed. */
    public long filterRowsRemoved() {
        return runtimeFilters.stream().mapToLong(f -> f.probeRowsIn() - f.probeRowsOut()).sum();
    }

    /** Probe blocks runtime filters skipped unread. */
    public long filterBlocksSkipped() {
        return runtimeFilters.stream().mapToLong(RuntimeFilterStats::blocksSkipped).sum();
    }

    /**
     * One exchange.
     *
     * @param id        the exchange's number within the query, from 0
     * @param mode      the dispatch mode the plan asked for
     * @param keys      the key columns it shuffles by (empty when it does not shuffle)
     * @param bucketRows rows delivered to each bucket (a broadcast counts each copy)
     */
    public record ExchangeStats(int id, String mode, List<String> keys, long rowsRemote, long bytesRemote,
            long rowsLocal, long bytesLocal, long[] bucketRows) {
    }

    public long rowsRemote() {
        return exchanges.stream().mapToLong(ExchangeStats::rowsRemote).sum();
    }

    public long bytesRemote() {
        return exchanges.stream().mapToLong(ExchangeStats::bytesRemote).sum();
    }

    public long rowsLocal() {
        return exchanges.stream().mapToLong(ExchangeStats::rowsLocal).sum();
    }

    public long bytesLocal() {
        return exchanges.stream().mapToLong(ExchangeStats::bytesLocal).sum();
    }
}
