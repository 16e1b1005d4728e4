package io.sluice.perf.cli;

import io.sluice.perf.tpch.TpchSkew;
import picocli.CommandLine;

/** Reads {@code --skew}: a Zipf exponent in (0, 4], with an error that says so for anything else. */
final class SkewConverter implements CommandLine.ITypeConverter<TpchSkew> {
    @Override
    public TpchSkew convert(final String value) {
        final double z;
        try {
            z = Double.parseDouble(value.trim());
        } catch (final NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a number: use a Zipf exponent in"
                    + " (0, " + (int) TpchSkew.MAX_EXPONENT + "], e.g. 1 or 1.5");
        }
        try {
            return TpchSkew.of(z);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
