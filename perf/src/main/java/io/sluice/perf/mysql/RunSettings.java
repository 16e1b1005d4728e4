package io.sluice.perf.mysql;

/**
 * How a connection's statements run on the cluster, from its session variables: what {@code sluice sql
 * --coordinator} takes as {@code --strategy}, {@code --cn}, {@code --cores} and {@code --timeout}.
 *
 * @param strategy      the strategy name (auto, broadcast, shuffle-hash, shuffle-range, colocate, hybrid)
 * @param cnCount       CNs to run on, 0 for every CN alive
 * @param cores         cores on each, 0 for the fewest any of them offers
 * @param timeoutMillis the time limit of each statement, 0 for none
 */
public record RunSettings(String strategy, int cnCount, int cores, long timeoutMillis) {
    /** The defaults: auto on every CN alive, no time limit. */
    public static final RunSettings DEFAULTS = new RunSettings("auto", 0, 0, 0);
}
