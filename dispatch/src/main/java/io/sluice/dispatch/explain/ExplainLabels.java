package io.sluice.dispatch.explain;

import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.operator.DispatchMode;

/** How EXPLAIN names an exchange in its lines, the same words the cluster's dispatch uses for it. */
final class ExplainLabels {
    private ExplainLabels() {
    }

    /** Number, mode asked for, keys and buckets, e.g. {@code #1 TO_OWNER by [o_orderkey] range into 6 buckets}. */
    static String exchange(final RecordedExchange e) {
        return "#" + e.id() + " " + e.mode() + (e.mode() == DispatchMode.BROADCAST ? " (one copy per CN)" : "")
                + (e.function() == null ? "" : " by " + e.keys() + " " + (e.function().owner() instanceof RangeBucketFunction
                ? "range" : "hash") + " into " + e.function().bucketCount() + " buckets");
    }
}
