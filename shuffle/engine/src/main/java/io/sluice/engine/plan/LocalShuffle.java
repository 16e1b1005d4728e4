package io.sluice.engine.plan;

import io.sluice.shuffle.RangeBoundaries;
import io.sluice.zonemap.HeavyKey;
import java.util.List;

/**
 * A planner rule's choice for one join or group-by.
 *
 * @param choice        the distribution
 * @param boundaries    the range boundaries for {@link Distribution#SHUFFLE_RANGE}, {@link Distribution#COLOCATE},
 *                      {@link Distribution#PKEY} and a join's {@link Distribution#REUSE_SHUFFLE}, else null
 * @param rangeKey      the column the range boundaries split (a join's first probe key, one of a
 *                      group-by's keys), else null
 * @param reason        why, with the numbers
 * @param kept          the sides of a join that keep the partitioning they already have (no exchange)
 * @param colocatedScan for {@link Distribution#PKEY}: the side not kept is a scan stored in key order,
 *                      read colocated on the kept side's buckets instead of shuffled
 * @param code          why, as a code
 * @param numbers       the numbers the rule compared, in the order {@code code} names them
 * @param heavyKeys     a shuffle join's heavy probe keys, heaviest first ({@link DetermineHeavyKeys}): their probe
 *                      rows stay on their CN, spread over its cores, and their build rows go to every bucket;
 *                      empty when every key goes to its owner bucket
 */
record LocalShuffle(Distribution choice, RangeBoundaries boundaries, String rangeKey, String reason, Kept kept,
                    boolean colocatedScan, DistributionReason code, long[] numbers, List<HeavyKey> heavyKeys) {
    /** Which sides of a join keep their partitioning. */
    enum Kept {
        NONE, PROBE, BUILD, BOTH;

        boolean probe() {
            return this == PROBE || this == BOTH;
        }

        boolean build() {
            return this == BUILD || this == BOTH;
        }
    }

    LocalShuffle {
        heavyKeys = List.copyOf(heavyKeys);
    }

    LocalShuffle(final Distribution choice, final RangeBoundaries boundaries, final String rangeKey, final String reason,
                 final Kept kept, final boolean colocatedScan, final DistributionReason code, final long[] numbers) {
        this(choice, boundaries, rangeKey, reason, kept, colocatedScan, code, numbers, List.of());
    }

    LocalShuffle(final Distribution choice, final RangeBoundaries boundaries, final String rangeKey,
                 final String reason, final DistributionReason code, final long... numbers) {
        this(choice, boundaries, rangeKey, reason, Kept.NONE, false, code, numbers);
    }

    static LocalShuffle of(final Distribution choice, final DistributionReason code, final String reason,
                           final long... numbers) {
        return new LocalShuffle(choice, null, null, reason, code, numbers);
    }

    /** Whether heavy keys are dispatched apart from the rest. */
    boolean perKey() {
        return !heavyKeys.isEmpty();
    }

    /** Whether a join's probe side, where it is a scan, is read by colocated scans of the buckets. */
    boolean probeReadColocated() {
        return choice == Distribution.COLOCATE || choice == Distribution.PKEY && kept == Kept.BUILD && colocatedScan;
    }
}
