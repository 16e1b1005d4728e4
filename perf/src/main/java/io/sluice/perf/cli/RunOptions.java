package io.sluice.perf.cli;

import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import picocli.CommandLine.Option;

/** The options {@code sluice query} and {@code sluice sql} share: where a query runs, how it distributes, how rows print. */
final class RunOptions {
    @Option(names = "--cores", paramLabel = "K", description = "Worker threads per CN (default: available processors).")
    Integer cores;

    @Option(names = "--cn", paramLabel = "C", description = "Run on an embedded cluster of C compute nodes, each"
            + " with K cores, exchanging batches through Aeron (default: one process, no cluster runtime).")
    Integer cn;

    @Option(names = "--strategy", paramLabel = "S", defaultValue = "auto", converter = StrategyConverter.class,
            description = "Join and group-by distribution: auto (from zonemap stats), broadcast (merge group for"
                + " group-bys), shuffle-hash, shuffle-range, colocate or hybrid (default: ${DEFAULT-VALUE}).")
    Strategy strategy;

    @Option(names = "--format", paramLabel = "F", defaultValue = "table",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    ResultFormat format;

    /** The worker threads per CN, checked; the machine's processors unless --cores says otherwise. */
    int workers() {
        final int workers = cores == null ? Runtime.getRuntime().availableProcessors() : cores;
        if (workers < 1) {
            throw new IllegalArgumentException("--cores must be 1 or more, got " + workers);
        }
        if (cn != null && cn < 1) {
            throw new IllegalArgumentException("--cn must be 1 or more CNs, got " + cn);
        }
        return workers;
    }

    /** The strategy configuration: defaults with --strategy. */
    StrategyConfig config() {
        return StrategyConfig.defaults().withStrategy(strategy);
    }
}
