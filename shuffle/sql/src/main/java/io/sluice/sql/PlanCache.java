package io.sluice.sql;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The statements a {@link SqlPlanner} planned, by their text, least recently used dropped first: a
 * statement run again is not parsed, validated and rewritten again. Valid for as long as the planner's
 * tables stay as they were (the planner reads their statistics once, too). Thread-safe.
 */
final class PlanCache {
    /** System property: how many statements a planner keeps planned (0: none, plan every statement). */
    static final String CAPACITY_PROPERTY = "sluice.sql.planCache";
    /** Statements kept when the property is not set. */
    static final int DEFAULT_CAPACITY = 256;

    private final int capacity;
    private final Map<String, PlannedQuery> plans;

    /** A cache of at most {@code capacity} plans; 0 keeps none. */
    PlanCache(final int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("a plan cache holds 0 or more plans, got " + capacity);
        }
        this.capacity = capacity;
        this.plans = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(final Map.Entry<String, PlannedQuery> eldest) {
                return size() > PlanCache.this.capacity;
            }
        };
    }

    /** The capacity {@value #CAPACITY_PROPERTY} gives, else {@value #DEFAULT_CAPACITY}. */
    static int configuredCapacity() {
        final String configured = System.getProperty(CAPACITY_PROPERTY);
        if (configured == null) {
            return DEFAULT_CAPACITY;
        }
        try {
            final int capacity = Integer.parseInt(configured.trim());
            if (capacity >= 0) {
                return capacity;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("system property " + CAPACITY_PROPERTY + "=" + configured
                + " is not a count of plans: give 0 or more, e.g. -D" + CAPACITY_PROPERTY + "=0 to plan every statement");
    }

    /** The plan of this text, or null when it is not kept. */
    synchronized PlannedQuery get(final String text) {
        return capacity == 0 ? null : plans.get(text);
    }

    /** Keeps the plan of a text. */
    synchronized void put(final String text, final PlannedQuery planned) {
        if (capacity > 0) {
            plans.put(text, planned);
        }
    }
}
