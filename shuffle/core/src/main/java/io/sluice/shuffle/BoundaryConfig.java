package io.sluice.shuffle;

import io.sluice.zonemap.KeyQuantiles;

/**
 * The thresholds that decide how {@link RangeBoundaries} are chosen, in one place.
 *
 * @param uniformityThreshold   a key whose {@link KeyQuantiles#uniformity()} is at least this gets
 *                              equal-width ranges, otherwise quantile ranges; in [0, 1], default
 *                              {@value #DEFAULT_UNIFORMITY_THRESHOLD} (0 always takes equal width
 *                              when a range split is possible)
 * @param minDistinctPerBucket  fewer estimated distinct keys than this many per bucket falls back
 *                              to hash; at least 1, default {@value #DEFAULT_MIN_DISTINCT_PER_BUCKET}
 * @param maxSweptBlocks        blocks the quantile sweep reads before it samples; at least 1,
 *                              default {@link KeyQuantiles#DEFAULT_MAX_BLOCKS}
 */
public record BoundaryConfig(double uniformityThreshold, int minDistinctPerBucket, int maxSweptBlocks) {
    /** Default uniformity threshold: a peak 25% above the mean density still counts as uniform. */
    public static final double DEFAULT_UNIFORMITY_THRESHOLD = 0.8;
    /** Default distinct keys needed per bucket. */
    public static final int DEFAULT_MIN_DISTINCT_PER_BUCKET = 8;
    /** The defaults. */
    public static final BoundaryConfig DEFAULT = new BoundaryConfig(DEFAULT_UNIFORMITY_THRESHOLD,
            DEFAULT_MIN_DISTINCT_PER_BUCKET, KeyQuantiles.DEFAULT_MAX_BLOCKS);

    /**
     * Checks each threshold against its range.
     *
     * @param uniformityThreshold  uniformity from which equal-width ranges are taken, in [0, 1]
     * @param minDistinctPerBucket estimated distinct keys needed per bucket for a range split, at least 1
     * @param maxSweptBlocks       blocks the quantile sweep reads before it samples, at least 1
     * @throws IllegalArgumentException when a value is out of range; the message gives the range and
     *                                  the default
     */
    public BoundaryConfig {
        if (!(uniformityThreshold >= 0 && uniformityThreshold <= 1)) {
            throw new IllegalArgumentException("uniformity threshold " + uniformityThreshold
                    + " is not valid: use a number in [0, 1] (default " + DEFAULT_UNIFORMITY_THRESHOLD + ")");
        }
        if (minDistinctPerBucket < 1) {
            throw new IllegalArgumentException("minimum distinct keys per bucket " + minDistinctPerBucket
                    + " is not valid: use 1 or more (default " + DEFAULT_MIN_DISTINCT_PER_BUCKET + ")");
        }
        if (maxSweptBlocks < 1) {
            throw new IllegalArgumentException("maximum swept blocks " + maxSweptBlocks
                    + " is not valid: use 1 or more (default " + KeyQuantiles.DEFAULT_MAX_BLOCKS + ")");
        }
    }

    /**
     * This config with another uniformity threshold.
     *
     * @param threshold uniformity from which equal-width ranges are taken, in [0, 1]
     * @return a new config, the other thresholds unchanged
     * @throws IllegalArgumentException when {@code threshold} is outside [0, 1]
     */
    public BoundaryConfig withUniformityThreshold(final double threshold) {
        return new BoundaryConfig(threshold, minDistinctPerBucket, maxSweptBlocks);
    }

    /**
     * This config with another minimum of distinct keys per bucket.
     *
     * @param min estimated distinct keys needed per bucket for a range split, at least 1
     * @return a new config, the other thresholds unchanged
     * @throws IllegalArgumentException when {@code min} is below 1
     */
    public BoundaryConfig withMinDistinctPerBucket(final int min) {
        return new BoundaryConfig(uniformityThreshold, min, maxSweptBlocks);
    }

    /**
     * This config with another sampling threshold.
     *
     * @param max blocks the quantile sweep reads before it samples, at least 1
     * @return a new config, the other thresholds unchanged
     * @throws IllegalArgumentException when {@code max} is below 1
     */
    public BoundaryConfig withMaxSweptBlocks(final int max) {
        return new BoundaryConfig(uniformityThreshold, minDistinctPerBucket, max);
    }
}
