package io.sluice.engine.plan;

import io.sluice.shuffle.RangeBoundaries;

/**
 * A planner rule's choice for one join or group-by.
 *
 * @param choice     the distribution
 * @param boundaries the range boundaries for {@link Distribution#SHUFFLE_RANGE} and
 *                   {@link Distribution#COLOCATE}, else null
 * @param rangeKey   the column the range boundaries split (a join's first probe key, one of a
 *                   group-by's keys), else null
 * @param reason     why, with the numbers
 */
record LocalShuffle(Distribution choice, RangeBoundaries boundaries, String rangeKey, String reason) {
    static LocalShuffle of(final Distribution choice, final String reason) {
        return new LocalShuffle(choice, null, null, reason);
    }
}
