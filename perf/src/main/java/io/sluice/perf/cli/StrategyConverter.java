package io.sluice.perf.cli;

import io.sluice.engine.plan.Strategy;
import picocli.CommandLine.ITypeConverter;

/** Parses {@code --strategy}: auto, broadcast, shuffle-hash, shuffle-range or colocate. */
final class StrategyConverter implements ITypeConverter<Strategy> {
    @Override
    public Strategy convert(final String value) {
        return Strategy.parse(value);
    }
}
