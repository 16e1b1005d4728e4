package io.sluice.dispatch;

import io.sluice.format.Schema;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.DispatchMode;

/**
 * One exchange of a query: {@code sendersPerCn} sending pipelines on every CN dispatch batches of
 * {@code schema} in {@code mode} to the receiving destinations, one per bucket of {@code topology}
 * (only {@code gatherBucket} for {@link DispatchMode#GATHER}).
 *
 * <p>Every sender sends end-of-stream exactly once to every receiver that expects it: all receivers,
 * except that with {@link DispatchMode#LOCAL_ONLY} a receiver expects only the senders of its own CN.
 *
 * @param queryId      the query, carried in every frame
 * @param exchangeId   the exchange within the query, 0 to {@link #MAX_EXCHANGE_ID}; with the query id and the
 *                     bucket, it names where a frame goes on its CN's stream
 * @param topology     CNs x cores; bucket b is received on CN b / coresPerCn
 * @param mode         how batches are routed
 * @param schema       the columns of every batch, needed to decode frames
 * @param sendersPerCn sending pipelines per CN (each opens one {@link ExchangeSink})
 * @param gatherBucket the one receiver of a GATHER exchange; ignored otherwise
 */
public record Exchange(long queryId, int exchangeId, Topology topology, DispatchMode mode, Schema schema,
        int sendersPerCn, int gatherBucket) {
    /** Highest exchange id. */
    public static final int MAX_EXCHANGE_ID = 32_000;

    public Exchange {
        if (exchangeId < 0 || exchangeId > MAX_EXCHANGE_ID) {
            throw new IllegalArgumentException("exchange id " + exchangeId + " of query " + queryId
                    + " is not valid: use 0.." + MAX_EXCHANGE_ID);
        }
        if (sendersPerCn < 1) {
            throw new IllegalArgumentException("exchange " + exchangeId + " of query " + queryId + " has "
                    + sendersPerCn + " senders per CN: every CN runs at least one sending pipeline");
        }
        if (mode == DispatchMode.GATHER && (gatherBucket < 0 || gatherBucket >= topology.bucketCount())) {
            throw new IllegalArgumentException("gather bucket " + gatherBucket + " of exchange " + exchangeId
                    + " query " + queryId + " is not a bucket of topology " + topology + ": use 0.."
                    + (topology.bucketCount() - 1));
        }
    }

    /** An exchange whose receivers are all the buckets of the topology. */
    public static Exchange of(final long queryId, final int exchangeId, final Topology topology,
            final DispatchMode mode, final Schema schema, final int sendersPerCn) {
        return new Exchange(queryId, exchangeId, topology, mode, schema, sendersPerCn, 0);
    }

    /** A GATHER exchange to the one bucket {@code gatherBucket}. */
    public static Exchange gather(final long queryId, final int exchangeId, final Topology topology,
            final Schema schema, final int sendersPerCn, final int gatherBucket) {
        return new Exchange(queryId, exchangeId, topology, DispatchMode.GATHER, schema, sendersPerCn, gatherBucket);
    }

    /**
     * Whether bucket {@code bucket} has a receiver in this exchange: every bucket, but only
     * {@code gatherBucket} for a GATHER and each CN's first core for a BROADCAST (one copy per CN).
     */
    public boolean receives(final int bucket) {
        if (bucket < 0 || bucket >= topology.bucketCount()) {
            return false;
        }
        return switch (mode) {
            case GATHER -> bucket == gatherBucket;
            case BROADCAST -> topology.coreOf(bucket) == 0;
            default -> true;
        };
    }

    /** Whether a receiver on {@code receiverCn} expects end-of-stream from the senders of {@code senderCn}. */
    public boolean expects(final int receiverCn, final int senderCn) {
        return mode != DispatchMode.LOCAL_ONLY || receiverCn == senderCn;
    }

    /** "query q exchange e", for messages. */
    public String describe() {
        return "query " + queryId + " exchange " + exchangeId + " (" + mode + ", " + topology + ")";
    }
}
