package io.sluice.dispatch;

import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;

/**
 * The destinations of one batch, by {@link DispatchMode} and {@code shuffleIdx}, for one sending
 * pipeline: writes bucket numbers into a caller's array, allocating nothing.
 */
final class Routing {
    private final Exchange exchange;
    private final Topology topology;
    private final int senderCn;
    private int nextAny;

    Routing(final Exchange exchange, final int senderCn, final int senderPipeline) {
        this.exchange = exchange;
        this.topology = exchange.topology();
        this.senderCn = senderCn;
        // Senders start their round-robin at different buckets so that ANY spreads from the first batch.
        this.nextAny = (senderCn * exchange.sendersPerCn() + senderPipeline) % topology.bucketCount();
    }

    /** Most destinations one batch can have. */
    int maxDestinations() {
        return topology.bucketCount();
    }

    /**
     * Writes the buckets {@code shuffleIdx} goes to into {@code out}.
     *
     * @return how many
     */
    int route(final int shuffleIdx, final int[] out) {
        final DispatchMode mode = exchange.mode();
        final int buckets = topology.bucketCount();
        if (mode.readsShuffleIdx() && (shuffleIdx < 0 || shuffleIdx >= buckets)) {
            throw new IllegalArgumentException("batch with shuffleIdx " + shuffleIdx + " sent from CN " + senderCn
                    + " on " + exchange.describe() + ": " + mode + " needs a bucket 0.." + (buckets - 1)
                    + (shuffleIdx == Batch.NO_SHUFFLE_IDX ? "; put a shuffle operator before the dispatch" : ""));
        }
        switch (mode) {
            case TO_OWNER:
                out[0] = shuffleIdx;
                return 1;
            case LOCAL_ONLY:
                out[0] = topology.firstBucketOf(senderCn) + topology.coreOf(shuffleIdx);
                return 1;
            case ALL_CN: {
                final int core = topology.coreOf(shuffleIdx);
                for (int cn = 0; cn < topology.cnCount(); cn++) {
                    out[cn] = topology.firstBucketOf(cn) + core;
                }
                return topology.cnCount();
            }
            case BROADCAST:
                for (int cn = 0; cn < topology.cnCount(); cn++) {
                    out[cn] = topology.firstBucketOf(cn);
                }
                return topology.cnCount();
            case ANY:
                out[0] = nextAny;
                nextAny = nextAny + 1 == buckets ? 0 : nextAny + 1;
                return 1;
            case GATHER:
                out[0] = exchange.gatherBucket();
                return 1;
            default:
                throw new IllegalStateException("unknown dispatch mode " + mode);
        }
    }
}
