package io.sluice.shuffle.operator;

/**
 * Where a dispatch sends a batch, given the {@code shuffleIdx} a shuffle operator tagged it with
 * (seed 003). The first three are MatrixOne's dispatch strategies; the last three do not read
 * {@code shuffleIdx}.
 */
public enum DispatchMode {
    /**
     * The one destination that owns bucket {@code shuffleIdx}, on whichever CN it runs: local through
     * an in-process queue, remote through Aeron. The ordinary shuffle; may cross the network.
     */
    TO_OWNER,
    /**
     * The destination on this CN that matches {@code shuffleIdx} (core {@code shuffleIdx % coresPerCn}):
     * exactly one local copy, never the network. Used by hybrid shuffle for the part that stays local.
     */
    LOCAL_ONLY,
    /**
     * The destination matching {@code shuffleIdx} on every CN (core {@code shuffleIdx % coresPerCn} of
     * each): one copy per CN, so always crosses the network. Used by hybrid shuffle.
     */
    ALL_CN,
    /**
     * One copy per CN, to its first core's destination, whatever {@code shuffleIdx} says: the build side
     * of a broadcast join, which one pipeline of each CN receives and builds into the table all its
     * cores share (seed 000's PASS_TO_ONE on the receiving side).
     */
    BROADCAST,
    /** Any one destination, round-robin: spreads work where no bucket owns the rows (pass to one). */
    ANY,
    /** The exchange's single gather destination: partial results to the coordinator. */
    GATHER;

    /**
     * Whether this mode routes by {@code shuffleIdx}, so an untagged batch is an error.
     *
     * @return true for {@link #TO_OWNER}, {@link #LOCAL_ONLY} and {@link #ALL_CN}
     */
    public boolean readsShuffleIdx() {
        return this == TO_OWNER || this == LOCAL_ONLY || this == ALL_CN;
    }
}
