package io.sluice.storage;

/**
 * The {@code sluice.storage.*} system properties the block store reads, each with its default and
 * meaning: the list the generated property reference (docs/reference/properties.md) is made from.
 */
public enum StorageProperty {
    OPEN_BLOCK_FILES(BlockFileCache.CAPACITY_PROPERTY,
            "half the process's file descriptor limit, 16 to 16384 (" + BlockFileCache.DEFAULT_CAPACITY
                    + " where the limit is unknown)",
            "Block files the process's shared BlockFileCache keeps open once released (least recently used"
                    + " closed first); a file in use is never closed under its reader.");

    private final String key;
    private final String defaultValue;
    private final String meaning;

    StorageProperty(final String key, final String defaultValue, final String meaning) {
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
}
