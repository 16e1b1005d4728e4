package io.sluice.shuffle;

/**
 * Where one side of a join sends the rows of its heavy keys (Teradata's partial redistribution and partial
 * duplication, seed 003's hybrid dispatch per key).
 */
public enum HeavyKeyDispatch {
    /**
     * The large (probe) side: a heavy key's rows stay on the CN that read them, spread over its cores in
     * turn (seed 003's {@code LOCAL_ONLY}), so no core holds a heavy key alone.
     */
    KEEP_LOCAL,
    /**
     * The other (build) side: a heavy key's rows go to every bucket, on every CN (seed 003's {@code ALL_CN}
     * to every core), so that each core probing that key holds its matches.
     */
    REPLICATE
}
