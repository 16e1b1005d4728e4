package io.sluice.perf.tpch;

import org.apache.commons.rng.sampling.distribution.RejectionInversionZipfSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Draws indexes in {@code [0, count)} whose ranks follow Zipf's law with exponent Z: the most frequent
 * index is drawn with probability {@code 1 / H(count, Z)}, the k-th with {@code 1 / (k^Z H(count, Z))}.
 * The ranks are spread over the index range by a fixed permutation (a multiplication modulo the count
 * by a number near the golden ratio of it), so the heaviest keys lie anywhere in the key domain,
 * not at its start. The same seed gives the same sequence.
 */
final class ZipfKeys {
    private static final double GOLDEN = 0.6180339887498949;
    private final SharedStateDiscreteSampler ranks;
    private final long count;
    private final long stride;

    ZipfKeys(final long count, final double exponent, final long seed) {
        if (count < 1 || count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a Zipf key range holds 1.." + Integer.MAX_VALUE + " keys, got " + count);
        }
        this.ranks = RejectionInversionZipfSampler.of(RandomSource.SPLIT_MIX_64.create(seed), (int) count, exponent);
        this.count = count;
        this.stride = coprimeNear(count, Math.max(1, Math.round(count * GOLDEN)));
    }

    /** The next index: rank r (1 the most frequent) lands on {@link #indexOfRank(long) indexOfRank(r)}. */
    long next() {
        return indexOfRank(ranks.sample());
    }

    /** The index rank {@code rank} (1-based) stands for. */
    long indexOfRank(final long rank) {
        return Math.floorMod(rank * stride, count);
    }

    /** The share of draws the rank-1 index gets: {@code 1 / H(count, exponent)}. */
    static double topShare(final long count, final double exponent) {
        double harmonic = 0;
        for (long k = count; k >= 1; k--) {
            harmonic += Math.pow(k, -exponent);
        }
        return 1 / harmonic;
    }

    private static long coprimeNear(final long count, final long start) {
        long s = start;
        while (gcd(s, count) != 1) {
            s++;
        }
        return s;
    }

    private static long gcd(final long a, final long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
