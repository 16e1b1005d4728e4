package io.sluice.perf.cli;

import io.sluice.shuffle.StraddlePolicy;
import picocli.CommandLine;

/** Reads {@code --straddle}: {@code majority} or {@code split}, with an error that names both for anything else. */
final class StraddleConverter implements CommandLine.ITypeConverter<StraddlePolicy> {
    @Override
    public StraddlePolicy convert(final String value) {
        try {
            return StraddlePolicy.parse(value);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
