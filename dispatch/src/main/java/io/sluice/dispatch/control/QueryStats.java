package io.sluice.dispatch.control;

import io.sluice.engine.exec.PipelineCounters;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.shuffle.Topology;
import java.util.List;

/**
 * What one distributed query moved, summed over every CN: per exchange and in total, the rows and
 * bytes that went from one CN to another through Aeron (remote) and those delivered inside a CN
 * (local), plus how the shuffle operators routed batches, and how many of the remote batches went as
 * their stored block, copied from its file, instead of encoded again. Bytes are the block layout:
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
 * @param sorts            what the coordinator did for the query's ORDER BYs
 * @param pipelines        each pipeline's rows and time per step, in run order (EXPLAIN ANALYZE); empty when
 *                         not counted
 * @param memory           each operator that holds rows, in the order they were compiled: the most bytes it held
 *                         on one CN and the bytes it wrote to spill files on all
 * @param storage          what the CNs read of a store on object storage, summed over the CNs that read one
 *                         (their counters for the time the query ran, so a query running beside others also counts
 *                         what those read on the same CN); null when no CN reads a store on object storage
 */
public record QueryStats(String query, String strategy, Topology topology, long wallMillis, long wholeBlockRoutes,
        long splitBatches, List<ExchangeStats> exchanges, List<RuntimeFilterStats> runtimeFilters, SortStats sorts,
        List<PipelineCounters> pipelines, List<OperatorMemory> memory, StorageReads storage) {
    public QueryStats {
        exchanges = List.copyOf(exchanges);
        runtimeFilters = List.copyOf(runtimeFilters);
        pipelines = List.copyOf(pipelines);
        memory = List.copyOf(memory);
        if (sorts == null) {
            throw new IllegalArgumentException("query stats need sort stats: SortStats.NONE for a query without");
        }
    }

    /** Stats without the memory of operators, of CNs that read no store on object storage. */
    public QueryStats(final String query, final String strategy, final Topology topology, final long wallMillis,
            final long wholeBlockRoutes, final long splitBatches, final List<ExchangeStats> exchanges,
            final List<RuntimeFilterStats> runtimeFilters, final SortStats sorts,
            final List<PipelineCounters> pipelines) {
        this(query, strategy, topology, wallMillis, wholeBlockRoutes, splitBatches, exchanges, runtimeFilters, sorts,
                pipelines, List.of(), null);
    }

    /** Stats without per-pipeline counters. */
    public QueryStats(final String query, final String strategy, final Topology topology, final long wallMillis,
            final long wholeBlockRoutes, final long splitBatches, final List<ExchangeStats> exchanges,
            final List<RuntimeFilterStats> runtimeFilters, final SortStats sorts) {
        this(query, strategy, topology, wallMillis, wholeBlockRoutes, splitBatches, exchanges, runtimeFilters, sorts,
                List.of());
    }

    /** Stats of a query whose coordinator neither merged nor sorted. */
    public QueryStats(final String query, final String strategy, final Topology topology, final long wallMillis,
            final long wholeBlockRoutes, final long splitBatches, final List<ExchangeStats> exchanges,
            final List<RuntimeFilterStats> runtimeFilters) {
        this(query, strategy, topology, wallMillis, wholeBlockRoutes, splitBatches, exchanges, runtimeFilters,
                SortStats.NONE);
    }

    /**
     * How the coordinator ordered rows: what its MERGE SORTs merged, and how many full sorts it ran
     * (a gather-and-sort, or a sort of rows already there, after a merge group).
     *
     * @param mergedRows rows the merge sorts handed out
     * @param mergedRuns sorted runs they merged
     * @param fullSorts  sorts of every row the coordinator ran
     */
    public record SortStats(long mergedRows, long mergedRuns, long fullSorts) {
        /** Nothing sorted. */
        public static final SortStats NONE = new SortStats(0, 0, 0);

        /** Both summed (over CNs: only the coordinator has any). */
        public SortStats plus(final SortStats o) {
            return new SortStats(mergedRows + o.mergedRows, mergedRuns + o.mergedRuns, fullSorts + o.fullSorts);
        }
    }

    /**
     * The memory of one operator that holds rows (a hash join build, a group table, rows kept to sort or window).
     *
     * @param operator     its name, as memory errors name it
     * @param peakBytes    the most bytes it held at once on one CN
     * @param spilledBytes the bytes it wrote to spill files, on every CN
     */
    public record OperatorMemory(String operator, long peakBytes, long spilledBytes) {
        /** The same operator's memory on two CNs: the larger peak, the spills summed. */
        public OperatorMemory plus(final OperatorMemory o) {
            return new OperatorMemory(operator, Math.max(peakBytes, o.peakBytes), spilledBytes + o.spilledBytes);
        }
    }

    /** Bytes the query's operators wrote to spill files, summed over them. */
    public long spilledBytes() {
        return memory.stream().mapToLong(OperatorMemory::spilledBytes).sum();
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
     * @param blocksSentStored DATA frames that carried a stored block as it lies in its file (part of the
     *                         remote batches)
     * @param bytesSentStored  their payload bytes (part of {@code bytesRemote})
     */
    public record ExchangeStats(int id, String mode, List<String> keys, long rowsRemote, long bytesRemote,
            long rowsLocal, long bytesLocal, long[] bucketRows, long blocksSentStored, long bytesSentStored) {
        /** An exchange that sent nothing as stored. */
        public ExchangeStats(final int id, final String mode, final List<String> keys, final long rowsRemote,
                final long bytesRemote, final long rowsLocal, final long bytesLocal, final long[] bucketRows) {
            this(id, mode, keys, rowsRemote, bytesRemote, rowsLocal, bytesLocal, bucketRows, 0, 0);
        }
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

    /** DATA frames, over every exchange, that carried a stored block instead of a re-encoded batch. */
    public long blocksSentStored() {
        return exchanges.stream().mapToLong(ExchangeStats::blocksSentStored).sum();
    }

    /** Payload bytes of the {@link #blocksSentStored} frames. */
    public long bytesSentStored() {
        return exchanges.stream().mapToLong(ExchangeStats::bytesSentStored).sum();
    }
}
