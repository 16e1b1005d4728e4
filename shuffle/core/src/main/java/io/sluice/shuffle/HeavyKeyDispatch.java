package io.sluice.shuffle;

/**
 * Where one side of a join sends the rows of its heavy keys (Teradata's partial redistribution and partial
 * duplication, seed 003's hybrid dispatch per key).
 */
public enum HeavyKeyDispatch {
    /**
     * The large (probe) side: the other side's rows of a heavy key are on every bucket, so its rows may go to
     * any; they fill the buckets the other keys left emptiest, the sender's CN's first (seed 003's
     * {@code LOCAL_ONLY} where that CN's buckets need them all), and cross CNs only for what its buckets do
     * not need.
     */
    LOCAL_FIRST,
    /**
     * The other (build) side: a heavy key's rows go to every bucket, on every CN (seed 003's {@code ALL_CN}
     * to every core), so that each core probing that key holds its matches.
     */
    REPLICATE
}
