package io.sluice.perf.cli;

import io.sluice.perf.tpch.TpchLoader;
import picocli.CommandLine;

/** Reads {@code --sf}: a number in (0, 1000], with an error that says so for anything else. */
final class ScaleFactorConverter implements CommandLine.ITypeConverter<Double> {
    @Override
    public Double convert(final String value) {
        final double scaleFactor;
        try {
            scaleFactor = Double.parseDouble(value.trim());
        } catch (final NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a number: use a scale factor in"
                    + " (0, " + (int) TpchLoader.MAX_SCALE_FACTOR + "], e.g. 0.01, 0.1, 1");
        }
        try {
            return TpchLoader.checkScaleFactor(scaleFactor);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
