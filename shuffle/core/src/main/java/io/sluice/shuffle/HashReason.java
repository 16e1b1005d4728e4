package io.sluice.shuffle;

/** Why boundaries fell back from a range shuffle to a hash shuffle. */
public enum HashReason {
    /** The boundaries are ranges; there was no fallback. */
    NONE,
    /** No zonemaps to range-split by: the table has no blocks, or every key is null. */
    NO_STATS,
    /** Every key is the same ({@code min == max}): one range would hold all rows. */
    SINGLE_VALUE,
    /** Fewer distinct keys than {@link BoundaryConfig#minDistinctPerBucket()} per bucket. */
    TOO_FEW_DISTINCT,
    /** Two cut points became the same key after rounding to whole keys (a heavy key or a narrow range). */
    DUPLICATE_CUTS
}
