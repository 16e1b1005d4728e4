package io.sluice.engine.plan;

import io.sluice.engine.filter.RuntimeFilterConfig;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.shuffle.operator.ShuffleOptions;

/**
 * The thresholds {@link Strategy#AUTO} decides by, and the strategy itself, in one place. The
 * defaults follow MatrixOne (seed 003): a join is shuffled only when its build side has at least
 * {@value #DEFAULT_JOIN_SHUFFLE_MIN_BUILD_ROWS} rows, a group-by only when its key has at least
 * {@value #DEFAULT_GROUP_SHUFFLE_MIN_DISTINCT} distinct values; below that one shared hash table
 * or a merge of small per-core tables is cheaper than moving rows. A shuffle join that cannot be
 * colocated moves every probe row through the shuffle, which pays only for a large hash table:
 * from {@value #DEFAULT_JOIN_MOVING_SHUFFLE_MIN_BUILD_ROWS} build rows (MatrixOne's ~2M). Each can
 * be overridden with a system property ({@link PlannerProperty}).
 *
 * @param strategy                       auto, or the strategy every join and group-by is forced to
 * @param joinShuffleMinBuildRows        estimated build rows from which auto shuffles a join it can colocate
 * @param joinMovingShuffleMinBuildRows  estimated build rows from which auto shuffles a join whose probe
 *                                       rows would all move (range on a key the probe is not stored by, or hash)
 * @param groupShuffleMinDistinct        estimated distinct group keys from which auto shuffles a group-by
 * @param shuffle                        pool budget and routing of each worker's shuffle operator
 * @param runtimeFilters                 which runtime filters joins make and how long probe scans wait for them
 * @param mergeSort                      whether a distributed ORDER BY sorts on each core and merges the sorted
 *                                       runs on the coordinator (true, the default) or gathers every row and
 *                                       sorts it there ({@link DetermineSortDistribution})
 * @param partitionReuse                 whether a shuffle join keeps a range partitioning a side already has
 *                                       (PKEY, or no exchange when both have it; true, the default) or shuffles
 *                                       both sides as planned without regard to their inputs
 * @param heavyKeys                      whether a shuffle join dispatches the heavy keys of its probe key apart
 *                                       (kept on their CN, the matching build rows copied to every bucket; true,
 *                                       the default) or sends every key to its owner bucket
 *                                       ({@link DeterminePartitionReuse})
 */
public record StrategyConfig(Strategy strategy, long joinShuffleMinBuildRows, long joinMovingShuffleMinBuildRows,
                             long groupShuffleMinDistinct, ShuffleOptions shuffle, RuntimeFilterConfig runtimeFilters,
                             boolean mergeSort, boolean partitionReuse, boolean heavyKeys) {
    /** Default build-side rows from which a join is shuffled. */
    public static final long DEFAULT_JOIN_SHUFFLE_MIN_BUILD_ROWS = 120_000;
    /** Default build-side rows from which a join that cannot be colocated is shuffled. */
    public static final long DEFAULT_JOIN_MOVING_SHUFFLE_MIN_BUILD_ROWS = 2_000_000;
    /** Default distinct group keys from which a group-by is shuffled. */
    public static final long DEFAULT_GROUP_SHUFFLE_MIN_DISTINCT = 50_000;

    public StrategyConfig {
        if (strategy == null || shuffle == null || runtimeFilters == null) {
            throw new IllegalArgumentException("a strategy config needs a strategy, shuffle options and a runtime filter"
                    + " config, got strategy=" + strategy + ", shuffle=" + shuffle + ", runtimeFilters=" + runtimeFilters);
        }
        if (joinShuffleMinBuildRows < 0 || joinMovingShuffleMinBuildRows < 0 || groupShuffleMinDistinct < 0) {
            throw new IllegalArgumentException("strategy thresholds must be 0 or more, got joinShuffleMinBuildRows="
                    + joinShuffleMinBuildRows + ", joinMovingShuffleMinBuildRows=" + joinMovingShuffleMinBuildRows
                    + ", groupShuffleMinDistinct=" + groupShuffleMinDistinct);
        }
    }

    /**
     * A config that merges sorted runs of a distributed ORDER BY unless {@code sluice.sort.merge} is false,
     * and reuses partitionings unless {@code sluice.join.partitionReuse} is false.
     */
    public StrategyConfig(final Strategy strategy, final long joinShuffleMinBuildRows,
                          final long joinMovingShuffleMinBuildRows, final long groupShuffleMinDistinct,
                          final ShuffleOptions shuffle, final RuntimeFilterConfig runtimeFilters) {
        this(strategy, joinShuffleMinBuildRows, joinMovingShuffleMinBuildRows, groupShuffleMinDistinct, shuffle,
                runtimeFilters, mergeSortDefault(), partitionReuseDefault(), heavyKeysDefault());
    }

    /** {@code sluice.sort.merge}, true unless set to false. */
    private static boolean mergeSortDefault() {
        return Boolean.parseBoolean(PlannerProperty.SORT_MERGE.value());
    }

    /** {@code sluice.join.partitionReuse}, true unless set to false. */
    private static boolean heavyKeysDefault() {
        return Boolean.parseBoolean(PlannerProperty.HEAVY_KEYS.value());
    }

    private static boolean partitionReuseDefault() {
        return Boolean.parseBoolean(PlannerProperty.PARTITION_REUSE.value());
    }

    /** A config with the default runtime filters ({@link RuntimeFilterConfig#defaults()}). */
    public StrategyConfig(final Strategy strategy, final long joinShuffleMinBuildRows,
                          final long joinMovingShuffleMinBuildRows, final long groupShuffleMinDistinct,
                          final ShuffleOptions shuffle) {
        this(strategy, joinShuffleMinBuildRows, joinMovingShuffleMinBuildRows, groupShuffleMinDistinct, shuffle,
                RuntimeFilterConfig.defaults());
    }

    /** Auto with the default thresholds, overridden by system properties where set. */
    public static StrategyConfig defaults() {
        return new StrategyConfig(
                Strategy.parse(PlannerProperty.STRATEGY.value()),
                Long.getLong(PlannerProperty.JOIN_SHUFFLE_MIN_BUILD_ROWS.key(), DEFAULT_JOIN_SHUFFLE_MIN_BUILD_ROWS),
                Long.getLong(PlannerProperty.JOIN_MOVING_SHUFFLE_MIN_BUILD_ROWS.key(),
                        DEFAULT_JOIN_MOVING_SHUFFLE_MIN_BUILD_ROWS),
                Long.getLong(PlannerProperty.GROUP_SHUFFLE_MIN_DISTINCT.key(), DEFAULT_GROUP_SHUFFLE_MIN_DISTINCT),
                ShuffleOptions.defaults(), RuntimeFilterConfig.defaults(), mergeSortDefault(), partitionReuseDefault(),
                heavyKeysDefault());
    }

    /** The same thresholds with another strategy. */
    public StrategyConfig withStrategy(final Strategy s) {
        return new StrategyConfig(s, joinShuffleMinBuildRows, joinMovingShuffleMinBuildRows, groupShuffleMinDistinct,
                shuffle, runtimeFilters, mergeSort, partitionReuse, heavyKeys);
    }

    /** The same config with other auto thresholds (one build-row threshold for every join shuffle). */
    public StrategyConfig withThresholds(final long joinBuildRows, final long groupDistinct) {
        return new StrategyConfig(strategy, joinBuildRows, joinBuildRows, groupDistinct, shuffle, runtimeFilters,
                mergeSort, partitionReuse, heavyKeys);
    }

    /** The same config with other runtime filter settings. */
    public StrategyConfig withRuntimeFilters(final RuntimeFilterConfig filters) {
        return new StrategyConfig(strategy, joinShuffleMinBuildRows, joinMovingShuffleMinBuildRows,
                groupShuffleMinDistinct, shuffle, filters, mergeSort, partitionReuse, heavyKeys);
    }

    /** The same config with another runtime filter mode. */
    public StrategyConfig withRuntimeFilters(final RuntimeFilterMode mode) {
        return withRuntimeFilters(runtimeFilters.withMode(mode));
    }

    /**
     * The same config with a distributed ORDER BY merging sorted runs on the coordinator (true) or
     * gathering every row and sorting it there (false).
     */
    public StrategyConfig withMergeSort(final boolean merge) {
        return new StrategyConfig(strategy, joinShuffleMinBuildRows, joinMovingShuffleMinBuildRows,
                groupShuffleMinDistinct, shuffle, runtimeFilters, merge, partitionReuse, heavyKeys);
    }

    /**
     * The same config with shuffle joins keeping the range partitionings their sides already have (true) or
     * shuffling both sides as planned (false).
     */
    public StrategyConfig withPartitionReuse(final boolean reuse) {
        return new StrategyConfig(strategy, joinShuffleMinBuildRows, joinMovingShuffleMinBuildRows,
                groupShuffleMinDistinct, shuffle, runtimeFilters, mergeSort, reuse, heavyKeys);
    }

    /** The same config with shuffle joins dispatching heavy keys apart (true) or every key to its owner (false). */
    public StrategyConfig withHeavyKeys(final boolean dispatchApart) {
        return new StrategyConfig(strategy, joinShuffleMinBuildRows, joinMovingShuffleMinBuildRows,
                groupShuffleMinDistinct, shuffle, runtimeFilters, mergeSort, partitionReuse, dispatchApart);
    }
}
