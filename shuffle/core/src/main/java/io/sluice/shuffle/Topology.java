package io.sluice.shuffle;

/**
 * The shape of a cluster for one query: {@code cnCount} compute nodes with {@code coresPerCn}
 * cores each. A shuffle has {@link #bucketCount()} = cnCount x coresPerCn buckets and bucket
 * {@code b} runs on CN {@code b / coresPerCn}, core {@code b % coresPerCn}, so the buckets of one
 * CN are contiguous and a CN's key range is the union of its cores' ranges.
 *
 * @param cnCount    compute nodes, 1 to {@link #MAX_CNS}
 * @param coresPerCn cores (pipelines, and so buckets) per CN, 1 to {@link #MAX_CORES_PER_CN}
 */
public record Topology(int cnCount, int coresPerCn) {
    /** Most CNs a topology may have. */
    public static final int MAX_CNS = 1024;
    /** Most cores per CN. */
    public static final int MAX_CORES_PER_CN = 1024;
    /** Most buckets (CNs x cores) a shuffle may have. */
    public static final int MAX_BUCKETS = 65_536;

    /**
     * Checks the counts against their limits.
     *
     * @param cnCount    compute nodes, 1 to {@link #MAX_CNS}
     * @param coresPerCn cores per CN, 1 to {@link #MAX_CORES_PER_CN}
     * @throws IllegalArgumentException when a count is out of range or their product exceeds
     *                                  {@link #MAX_BUCKETS}
     */
    public Topology {
        if (cnCount < 1 || cnCount > MAX_CNS) {
            throw new IllegalArgumentException("CN count " + cnCount + " is not valid: use 1.." + MAX_CNS);
        }
        if (coresPerCn < 1 || coresPerCn > MAX_CORES_PER_CN) {
            throw new IllegalArgumentException("cores per CN " + coresPerCn + " is not valid: use 1.." + MAX_CORES_PER_CN);
        }
        if ((long) cnCount * coresPerCn > MAX_BUCKETS) {
            throw new IllegalArgumentException("topology " + cnCount + "x" + coresPerCn + " has "
                    + ((long) cnCount * coresPerCn) + " buckets, more than the " + MAX_BUCKETS + " allowed");
        }
    }

    /**
     * Parses {@code CxK}, e.g. {@code 3x2}; the error shows the expected form.
     *
     * @param text CNs and cores per CN joined by {@code x} (any case, spaces around the numbers ignored)
     * @return the topology
     * @throws IllegalArgumentException when the text is not of that form or a count is out of range
     */
    public static Topology parse(final String text) {
        final String[] parts = text.trim().toLowerCase(java.util.Locale.ROOT).split("x");
        if (parts.length != 2) {
            throw new IllegalArgumentException("topology '" + text + "' is not valid: write CNSxCORES, e.g. 3x2");
        }
        try {
            return new Topology(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("topology '" + text + "' is not valid: write CNSxCORES, e.g. 3x2");
        }
    }

    /**
     * Number of shuffle buckets: CNs x cores.
     *
     * @return {@code cnCount * coresPerCn}, at most {@link #MAX_BUCKETS}
     */
    public int bucketCount() {
        return cnCount * coresPerCn;
    }

    /**
     * The CN bucket {@code b} runs on.
     *
     * @param bucket the bucket {@code b}, 0 to {@link #bucketCount()} - 1
     * @return {@code b / coresPerCn}
     */
    public int cnOf(final int bucket) {
        return bucket / coresPerCn;
    }

    /**
     * The core (pipeline) within its CN that bucket {@code b} runs on.
     *
     * @param bucket the bucket {@code b}, 0 to {@link #bucketCount()} - 1
     * @return {@code b % coresPerCn}
     */
    public int coreOf(final int bucket) {
        return bucket % coresPerCn;
    }

    /**
     * The first bucket of a CN; its buckets are {@code [first, first + coresPerCn)}.
     *
     * @param cn the CN, 0 to {@code cnCount - 1}
     * @return {@code cn * coresPerCn}
     */
    public int firstBucketOf(final int cn) {
        return cn * coresPerCn;
    }

    @Override
    public String toString() {
        return cnCount + "x" + coresPerCn;
    }
}
