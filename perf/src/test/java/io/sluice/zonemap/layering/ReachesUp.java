package io.sluice.zonemap.layering;

import io.sluice.engine.plan.Plan;

/**
 * Breaks the layering on purpose, for {@code io.sluice.perf.layers.LayeringTest}: a class in zonemap's
 * packages that uses the engine above it. Only the test that proves the rules can fail imports it.
 */
final class ReachesUp {
    private ReachesUp() {
    }

    static Plan planOf(final String table) {
        return Plan.scan(table, "k");
    }
}
