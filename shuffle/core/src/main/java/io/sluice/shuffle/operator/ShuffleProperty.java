package io.sluice.shuffle.operator;

/**
 * The {@code sluice.shuffle.*} system properties {@link ShuffleOptions#defaults()} reads, each with its
 * default and meaning: the list the generated property reference (docs/reference/properties.md) is made
 * from.
 */
public enum ShuffleProperty {
    /** {@value ShuffleOptions#POOL_BYTES_PROPERTY}: {@link ShuffleOptions#poolBytes()}. */
    POOL_BYTES(ShuffleOptions.POOL_BYTES_PROPERTY, Long.toString(ShuffleOptions.DEFAULT_POOL_BYTES),
            "Bytes of each shuffle operator's bucket buffer pool, a plain number; a full pool holds the producer"
                    + " back instead of growing."),
    /** {@value ShuffleOptions#ROUTING_PROPERTY}: {@link ShuffleOptions#routing()}. */
    WHOLE_BATCH_ROUTING(ShuffleOptions.ROUTING_PROPERTY, "when_proven",
            "When a batch may be routed to one bucket whole: when_proven (its zonemap or sorted ends lie in one"
                    + " bucket), never, or required (a batch that cannot be is an error).");

    private final String key;
    private final String defaultValue;
    private final String meaning;

    ShuffleProperty(final String key, final String defaultValue, final String meaning) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    /**
     * The system property's name.
     *
     * @return the name, {@code sluice.shuffle....}
     */
    public String key() {
        return key;
    }

    /**
     * The value used when the property is not set, written as one would set it.
     *
     * @return the default
     */
    public String defaultValue() {
        return defaultValue;
    }

    /**
     * What the property sets.
     *
     * @return one or two sentences
     */
    public String meaning() {
        return meaning;
    }
}
