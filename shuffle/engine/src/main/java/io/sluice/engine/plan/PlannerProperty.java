package io.sluice.engine.plan;

/**
 * The system properties {@link StrategyConfig#defaults()} reads, each with its default and meaning: the
 * list the generated property reference (docs/reference/properties.md) is made from.
 */
public enum PlannerProperty {
    STRATEGY("sluice.strategy", Strategy.AUTO.cliName(),
            "The strategy of every join and group-by: auto, or one forced on all of them (broadcast, shuffle-hash,"
                    + " shuffle-range, colocate, hybrid)."),
    JOIN_SHUFFLE_MIN_BUILD_ROWS("sluice.join.shuffleMinBuildRows",
            Long.toString(StrategyConfig.DEFAULT_JOIN_SHUFFLE_MIN_BUILD_ROWS),
            "Estimated build rows from which auto shuffles a join it can colocate."),
    JOIN_MOVING_SHUFFLE_MIN_BUILD_ROWS("sluice.join.movingShuffleMinBuildRows",
            Long.toString(StrategyConfig.DEFAULT_JOIN_MOVING_SHUFFLE_MIN_BUILD_ROWS),
            "Estimated build rows from which auto shuffles a join whose probe rows would all move."),
    GROUP_SHUFFLE_MIN_DISTINCT("sluice.group.shuffleMinDistinct",
            Long.toString(StrategyConfig.DEFAULT_GROUP_SHUFFLE_MIN_DISTINCT),
            "Estimated distinct group keys from which auto shuffles a group-by."),
    SORT_MERGE("sluice.sort.merge", "true",
            "Whether a distributed ORDER BY sorts on each core and merges the sorted runs (true) or gathers every"
                    + " row and sorts it in one place (false)."),
    PARTITION_REUSE("sluice.join.partitionReuse", "true",
            "Whether a shuffle join keeps a range partitioning a side already has (PKEY, or no exchange; true) or"
                    + " shuffles both sides as planned (false)."),
    HEAVY_KEYS("sluice.join.heavyKeys", "true",
            "Whether a shuffle join dispatches its probe key's heavy keys (above 1/(4 x buckets) of the rows under"
                    + " range, 1/(8 x buckets) under hash) apart, their probe rows filling the emptiest buckets, their"
                    + " own CN's first, and the matching build rows copied to every bucket (true), or sends every"
                    + " key to its owner bucket (false).");

    private final String key;
    private final String defaultValue;
    private final String meaning;

    PlannerProperty(final String key, final String defaultValue, final String meaning) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    /** The system property's name. */
    public String key() {
        return key;
    }

    /** The value used when the property is not set, written as one would set it. */
    public String defaultValue() {
        return defaultValue;
    }

    /** What the property sets. */
    public String meaning() {
        return meaning;
    }

    /** The property's value, or its default when it is not set. */
    String value() {
        return System.getProperty(key, defaultValue);
    }
}
