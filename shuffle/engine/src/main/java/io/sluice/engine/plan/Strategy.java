package io.sluice.engine.plan;

import java.util.Locale;

/**
 * Which local strategy joins and group-bys use ({@code sluice query --strategy}). {@link #AUTO}
 * lets {@link DetermineJoinDistribution} and {@link DetermineGroupStrategy} choose from zonemap
 * statistics; the others force one. For a group-by, {@link #BROADCAST} means a merge group and
 * every shuffle strategy a shuffle group on that kind of shuffle.
 */
public enum Strategy {
    /** Chosen per join and group-by from statistics and {@link StrategyConfig}'s thresholds. */
    AUTO,
    /** One build table shared by all cores; group-bys merge per-core partial tables. */
    BROADCAST,
    /** Both sides hash-shuffled by the key to one bucket per core. */
    SHUFFLE_HASH,
    /** Both sides range-shuffled by the key, boundaries from the probe side's key zonemaps. */
    SHUFFLE_RANGE,
    /** As {@link #SHUFFLE_RANGE}, with scans reading whole blocks into their bucket (no exchange). */
    COLOCATE,
    /**
     * Hybrid shuffle (seed 003): the probe side stays on its CN, hash-shuffled to the local cores
     * ({@code LOCAL_ONLY}); the build side goes to the matching core of every CN ({@code ALL_CN}).
     * On one CN it is a hash shuffle; group-bys are chosen as under {@link #AUTO}.
     */
    HYBRID;

    /** The name on the command line, e.g. {@code shuffle-hash}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses a command-line name; the error lists the names. */
    public static Strategy parse(final String text) {
        for (final Strategy s : values()) {
            if (s.cliName().equalsIgnoreCase(text) || s.name().equalsIgnoreCase(text)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown strategy '" + text
                + "': use auto, broadcast, shuffle-hash, shuffle-range, colocate or hybrid");
    }

    @Override
    public String toString() {
        return cliName();
    }
}
