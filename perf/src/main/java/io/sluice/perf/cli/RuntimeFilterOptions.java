package io.sluice.perf.cli;

import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.StrategyConfig;
import picocli.CommandLine.Option;

/** {@code --runtime-filters} and {@code --runtime-filter-wait}, shared by {@code sluice query} and {@code sluice bench}. */
final class RuntimeFilterOptions {
    @Option(names = "--runtime-filters", paramLabel = "MODE", defaultValue = "global",
            description = "Runtime filters joins make for their probe scans: off, local (only those needing no merge:"
                + " broadcast, hybrid, range and colocated joins) or global (also hash-shuffled joins; on a cluster of"
                + " several CNs only where no merge across CNs is needed) (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--runtime-filter-wait", paramLabel = "MS", defaultValue = "1000",
            description = "How long a probe scan waits for its runtime filters before it reads without them; a late"
                + " filter applies to the blocks read after it arrives (default: ${DEFAULT-VALUE}).")
    long waitMillis;

    /** The config with these runtime filter settings; a bad value names the option and the valid ones. */
    StrategyConfig apply(final StrategyConfig config) {
        final RuntimeFilterMode m;
        try {
            m = RuntimeFilterMode.parse(mode);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("--runtime-filters: " + e.getMessage());
        }
        if (waitMillis < 0) {
            throw new IllegalArgumentException("--runtime-filter-wait must be 0 ms or more, got " + waitMillis);
        }
        return config.withRuntimeFilters(config.runtimeFilters().withMode(m).withWaitMillis(waitMillis));
    }
}
