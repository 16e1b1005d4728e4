package io.sluice.engine.plan;

import java.util.List;
import java.util.Set;

/**
 * Decides where an operator that needs all rows of a key in one sink runs: a window (its
 * partitions) or a per-key row assertion. Without keys all rows are one group, gathered to the
 * coordinator ({@link Distribution#GATHER}); with keys, the rows are hash-shuffled by them, one
 * bucket per core ({@link Distribution#SHUFFLE_HASH}), unless the input already went through a
 * shuffle on some of those keys (a shuffle join on them), whose buckets then already hold whole
 * groups ({@link Distribution#REUSE_SHUFFLE}). Every strategy decides alike: these operators cannot
 * merge partial results as a group-by does, so there is no broadcast or merge alternative.
 */
final class DeterminePartitionDistribution {
    private DeterminePartitionDistribution() {
    }

    /**
     * @param keys         the columns whose equal values must meet in one sink
     * @param partitioning the shuffle the input went through, as slots of equal columns (null: none)
     * @param noKeys       why all rows are one group when there are no keys, for the decision
     */
    static LocalShuffle decide(final List<String> keys, final List<Set<String>> partitioning, final String noKeys) {
        if (keys.isEmpty()) {
            return LocalShuffle.of(Distribution.GATHER, DistributionReason.NO_PARTITION_KEYS, noKeys);
        }
        if (covers(partitioning, keys)) {
            return LocalShuffle.of(Distribution.REUSE_SHUFFLE, DistributionReason.INPUT_ALREADY_SHUFFLED, "input already shuffled by " + partitioning);
        }
        return LocalShuffle.of(Distribution.SHUFFLE_HASH, DistributionReason.WHOLE_GROUPS_PER_BUCKET, "whole groups per bucket: hash by " + keys);
    }

    /** Whether every slot of the partitioning has a column among the keys. */
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
