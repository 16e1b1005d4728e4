package io.sluice.perf.cli;

import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.StrategyConfig;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --runtime-filters} and {@code --runtime-filter-wait}, shared by {@code sluice query}, {@code sluice sql} and
 * {@code sluice bench};
 * the bench also takes several modes ({@code off,global}) and runs every cell under each.
 */
final class RuntimeFilterOptions {
    @Option(names = "--runtime-filters", paramLabel = "MODE", defaultValue = "global",
            description = "Runtime filters joins make for their probe scans: off, local (only those needing no merge:"
                + " broadcast, hybrid, range and colocated joins) or global (also hash-shuffled joins, their partial"
                + " filters merged by the coordinator); sluice bench takes a list, e.g. off,global, and runs every cell"
                + " under each (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--runtime-filter-wait", paramLabel = "MS", defaultValue = "1000",
            description = "How long a probe scan waits for its runtime filters before it reads without them; a late"
                + " filter applies to the blocks read after it arrives (default: ${DEFAULT-VALUE}).")
    long waitMillis;

    /** The config with these runtime filter settings (one mode); a bad value names the option and the valid ones. */
    StrategyConfig apply(final StrategyConfig config) {
        final List<RuntimeFilterMode> modes = modes();
        if (modes.size() != 1) {
            throw new IllegalArgumentException("--runtime-filters takes one mode here, got '" + mode
                    + "': write off, local or global");
        }
        return applyWait(config).withRuntimeFilters(modes.get(0));
    }

    /** The config with the wait set and the first mode (each bench cell then sets its own). */
    StrategyConfig applyWait(final StrategyConfig config) {
        if (waitMillis < 0) {
            throw new IllegalArgumentException("--runtime-filter-wait must be 0 ms or more, got " + waitMillis);
        }
        return config.withRuntimeFilters(config.runtimeFilters().withMode(modes().get(0)).withWaitMillis(waitMillis));
    }

    /** The modes, in the order given, each once. */
    List<RuntimeFilterMode> modes() {
        final LinkedHashSet<RuntimeFilterMode> modes = new LinkedHashSet<>();
        for (final String m : mode.split(",", -1)) {
            try {
                modes.add(RuntimeFilterMode.parse(m));
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException("--runtime-filters: " + e.getMessage());
            }
        }
        return new ArrayList<>(modes);
    }
}
