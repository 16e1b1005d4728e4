package io.sluice.engine.filter;

/**
 * The system properties {@link RuntimeFilterConfig#defaults()} reads, each with its default and meaning:
 * the list the generated property reference (docs/reference/properties.md) is made from.
 */
public enum RuntimeFilterProperty {
    MODE("sluice.runtimeFilters", "global",
            "Which runtime filters joins make: off, local (only those that need no merge) or global."),
    WAIT_MS("sluice.runtimeFilter.waitMs", Long.toString(RuntimeFilterConfig.DEFAULT_WAIT_MILLIS),
            "Milliseconds a probe scan waits for its filters before it reads its first block; a filter arriving"
                    + " later applies from then on."),
    IN_LIST_MAX_KEYS("sluice.runtimeFilter.inListMaxKeys", Integer.toString(RuntimeFilterConfig.DEFAULT_IN_LIST_MAX_KEYS),
            "Distinct build keys up to which an integer key gets an IN list (checked against zonemaps)."),
    BLOOM_FPP("sluice.runtimeFilter.bloomFpp", Double.toString(RuntimeFilterConfig.DEFAULT_BLOOM_FPP),
            "False-positive rate Bloom filters are sized for."),
    BLOOM_MAX_BYTES("sluice.runtimeFilter.bloomMaxBytes", Integer.toString(RuntimeFilterConfig.DEFAULT_MAX_BYTES),
            "Bytes of the largest Bloom filter; a global filter's partials must fit a control message.");

    private final String key;
    private final String defaultValue;
    private final String meaning;

    RuntimeFilterProperty(final String key, final String defaultValue, final String meaning) {
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
