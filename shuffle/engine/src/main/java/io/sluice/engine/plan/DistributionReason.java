package io.sluice.engine.plan;

/**
 * Why a planner rule chose an operator's {@link Distribution}, as a code with the numbers it compared
 * ({@link LocalShuffle#numbers()}, in the order each constant names); the words EXPLAIN prints stay beside it.
 */
public enum DistributionReason {
    /** The strategy was forced ({@code --strategy}). */
    FORCED,
    /** A join's or group-by's keys are expressions; a shuffle needs columns. */
    KEYS_ARE_EXPRESSIONS,
    /** A null-aware anti join (NOT IN) needs every build row on every CN. */
    NULL_AWARE_ANTI_JOIN,
    /** The build side is small: numbers (estimated build rows, shuffle threshold). */
    SMALL_BUILD,
    /** The build side is large enough to shuffle: numbers (estimated build rows, shuffle threshold). */
    LARGE_BUILD,
    /**
     * Copies of the build side move fewer bytes across CNs than a shuffle of both sides: numbers (build rows,
     * bytes the copies move, bytes a shuffle moves, CNs, the build rows from which each core builds its own keys).
     */
    COPIES_MOVE_FEWER_BYTES,
    /** A shuffle of both sides moves fewer bytes across CNs than copies: numbers (build rows, shuffle threshold). */
    SHUFFLE_MOVES_FEWER_BYTES,
    /**
     * The probe side is not stored by the key, so a shuffle would move every probe row: numbers (build rows, the
     * build rows from which that pays).
     */
    PROBE_NOT_STORED_BY_KEY,
    /** A right semi or anti join on a cluster emits each build row where its table was probed: partitioned. */
    RIGHT_JOIN_ON_CLUSTER,
    /** Both join sides are already range-partitioned by the same buckets: numbers (buckets). */
    BOTH_SIDES_PARTITIONED,
    /** One join side is already range-partitioned on its key (seed 001's PKEY): numbers (buckets). */
    ONE_SIDE_PARTITIONED,
    /** A group-by without keys. */
    NO_GROUP_KEYS,
    /** A window without PARTITION BY or an assertion without keys: all rows are one group. */
    NO_PARTITION_KEYS,
    /** The input already went through a shuffle on the keys. */
    INPUT_ALREADY_SHUFFLED,
    /** A COUNT DISTINCT has no partial state to merge across CNs. */
    COUNT_DISTINCT,
    /** No distinct estimate for the group keys (computed or strings). */
    NO_DISTINCT_ESTIMATE,
    /** Few distinct group keys: numbers (estimated distinct keys, shuffle threshold). */
    FEW_DISTINCT_KEYS,
    /** Many distinct group keys: numbers (estimated distinct keys, shuffle threshold). */
    MANY_DISTINCT_KEYS,
    /** Colocation was forced but the input is not stored by any group key. */
    INPUT_NOT_STORED_BY_KEY,
    /** Whole groups per bucket: a hash shuffle on the partition keys. */
    WHOLE_GROUPS_PER_BUCKET,
    /** A nested-loop join's probe rows stay where they are; the build side is copied. */
    NO_EQUALITY_KEYS,
    /**
     * A nested-loop join's probe rows are all on the coordinator, spread round-robin: numbers (build rows, the
     * threshold below which the build side is copied to every CN).
     */
    PROBE_ON_COORDINATOR_SPREAD,
    /** A nested-loop join's probe rows are all on the coordinator and stay there: numbers (build rows). */
    PROBE_ON_COORDINATOR
}
