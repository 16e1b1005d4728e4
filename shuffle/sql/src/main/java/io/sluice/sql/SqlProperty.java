package io.sluice.sql;

/**
 * The {@code sluice.sql.*} system properties the SQL front end reads, each with its default and meaning:
 * the list the generated property reference (docs/reference/properties.md) is made from.
 */
public enum SqlProperty {
    PLAN_CACHE(PlanCache.CAPACITY_PROPERTY, Integer.toString(PlanCache.DEFAULT_CAPACITY),
            "Statements a SqlPlanner keeps planned, by their text; 0 plans every statement anew.");

    private final String key;
    private final String defaultValue;
    private final String meaning;

    SqlProperty(final String key, final String defaultValue, final String meaning) {
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
