package io.sluice.shuffle;

/**
 * The shape of a cluster for one query: {@code cnCount} compute nodes with {@code coresPerCn}
 * cores each. A shuffle has {@link #bucketCount()} = cnCount x coresPerCn buckets and bucket
 * {@code b} runs on CN {@code b / coresPerCn}, core {@code b % coresPerCn}, so the buckets of one
 * CN are contiguous and a CN's key range is the union of its cores' ranges.
 */
public record Topology(int cnCount, int coresPerCn) {
    /** Most CNs a topology may have. */
    public static final int MAX_CNS = 1024;
    /** Most cores per CN. */
    public static final int MAX_CORES_PER_CN = 1024;
    /** Most buckets (CNs x cores) a shuffle may have. */
    public static final int MAX_BUCKETS = 65_536;

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

    /** Parses {@code CxK}, e.g. {@code 3x2}; the error shows the expected form. */
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

    /** Number of shuffle buckets: CNs x cores. */
    public int bucketCount() {
        return cnCount * coresPerCn;
    }

    /** The CN bucket {@code b} runs on. */
    public int cnOf(final int bucket) {
        return bucket / coresPerCn;
    }

    /** The core (pipeline) within its CN that bucket {@code b} runs on. */
    public int coreOf(final int bucket) {
        return bucket % coresPerCn;
    }

    /** The first bucket of a CN; its buckets are {@code [first, first + coresPerCn)}. */
    public int firstBucketOf(final int cn) {
        return cn * coresPerCn;
    }

    @Override
    public String toString() {
        return cnCount + "x" + coresPerCn;
    }
}
