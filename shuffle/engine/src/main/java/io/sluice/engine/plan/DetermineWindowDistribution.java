package io.sluice.engine.plan;

import java.util.List;
import java.util.Set;

/**
 * Decides where a window's partitions are computed: each partition must be whole in one sink.
 * Without PARTITION BY the rows are one partition, gathered to the coordinator
 * ({@link Distribution#GATHER}); with it, the rows are hash-shuffled by the partition keys, one
 * bucket per core ({@link Distribution#SHUFFLE_HASH}), unless the input already went through a
 * shuffle on some of those keys (a shuffle join on them), whose buckets then already hold whole
 * partitions ({@link Distribution#REUSE_SHUFFLE}). Every strategy decides alike: a window cannot
 * merge partial results as a group-by does, so there is no broadcast or merge alternative.
 */
final class DetermineWindowDistribution {
    private DetermineWindowDistribution() {
    }

    /** @param partitioning the shuffle the input went through, as slots of equal columns (null: none) */
    static LocalShuffle decide(final PlanNode.Window w, final List<Set<String>> partitioning) {
        if (w.partitionBy().isEmpty()) {
            return LocalShuffle.of(Distribution.GATHER, "no PARTITION BY: all rows are one partition");
        }
        if (covers(partitioning, w.partitionBy())) {
            return LocalShuffle.of(Distribution.REUSE_SHUFFLE, "input already shuffled by " + partitioning);
        }
        return LocalShuffle.of(Distribution.SHUFFLE_HASH, "partitions whole per bucket: hash by " + w.partitionBy());
    }

    /** Whether every slot of the partitioning has a column among the partition keys. */
    private static boolean covers(final List<Set<String>> partitioning, final List<String> keys) {
        if (partitioning == null || partitioning.isEmpty()) {
            return false;
        }
        for (final Set<String> slot : partitioning) {
            boolean hit = false;
            for (final String k : keys) {
                hit |= slot.contains(k);
            }
            if (!hit) {
                return false;
            }
        }
        return true;
    }
}
