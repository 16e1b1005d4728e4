package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.ControlMessage.FilterPartials;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.engine.filter.RuntimeFilterCodec;
import io.sluice.engine.wire.WireFormatException;

/**
 * The coordinator's side of one runtime filter of a query whose probe scans need every CN's build (seed
 * 004's global filter; here also per-bucket ones before a range shuffle): it takes each CN's partials
 * once, and when the last CN's are in, gives the filter every CN gets, the merge of all partials (global)
 * or the partials of every bucket side by side. A CN whose partials did not fit a message drops the filter
 * for all. Used by the coordinator's control loop only.
 */
final class RuntimeFilterGather {
    private static final byte[] DROPPED = new byte[0];

    private final int filterId;
    private final boolean[] heard;
    private int heardCount;
    private FilterPartial[] byBucket;
    private FilterPartial merged;
    private boolean dropped;

    RuntimeFilterGather(final int filterId, final int cnCount) {
        this.filterId = filterId;
        this.heard = new boolean[cnCount];
    }

    /**
     * Takes CN {@code index}'s partials (a repeat is ignored); returns the filter's bytes for every CN once
     * every CN's are in, else null.
     *
     * @throws WireFormatException when the partials do not decode or do not match the other CNs'
     */
    byte[] add(final int index, final FilterPartials message) {
        if (heard[index]) {
            return null;
        }
        heard[index] = true;
        heardCount++;
        if (message.partials().length == 0) {
            dropped = true;
        } else if (!dropped) {
            take(index, RuntimeFilterCodec.decode(message.partials()), message.merge());
        }
        if (heardCount < heard.length) {
            return null;
        }
        if (dropped || (merged == null && byBucket == null)) {
            return DROPPED;
        }
        return RuntimeFilterCodec.encode(merged != null ? new FilterPartial[] {merged} : byBucket);
    }

    private void take(final int index, final FilterPartial[] partials, final boolean merge) {
        if (merge) {
            merged = FilterPartial.mergeAll(merged, partials);
            return;
        }
        if (byBucket == null) {
            byBucket = new FilterPartial[partials.length];
        }
        if (partials.length != byBucket.length) {
            throw new IllegalArgumentException("CN " + index + " sent runtime filter " + filterId + " for "
                    + partials.length + " buckets, another CN for " + byBucket.length);
        }
        for (int b = 0; b < partials.length; b++) {
            if (partials[b] != null) {
                if (byBucket[b] != null) {
                    throw new IllegalArgumentException("runtime filter " + filterId + ": bucket " + b
                            + " came from two CNs (CN " + index + " and another)");
                }
                byBucket[b] = partials[b];
            }
        }
    }
}
