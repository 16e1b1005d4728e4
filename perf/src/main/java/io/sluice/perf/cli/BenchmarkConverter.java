package io.sluice.perf.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;

/** Parses {@code gen --benchmark}: tpch or tpcds. */
final class BenchmarkConverter implements ITypeConverter<GenCommand.Benchmark> {
    @Override
    public GenCommand.Benchmark convert(final String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "tpch", "tpc-h" -> GenCommand.Benchmark.TPCH;
            case "tpcds", "tpc-ds" -> GenCommand.Benchmark.TPCDS;
            default -> throw new IllegalArgumentException("--benchmark " + value + " is not known: use tpch or tpcds");
        };
    }
}
