package io.sluice.perf.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses a byte size such as {@code 512m}, {@code 10g} or {@code 1048576} (k, m, g, t: powers of 1024). */
final class ByteSizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(final String value) {
        return parse(value);
    }

    /** The bytes {@code value} names; the error shows how to write one. */
    static long parse(final String value) {
        final String v = value.trim().toLowerCase(Locale.ROOT).replace("ib", "").replace("b", "");
        if (v.isEmpty()) {
            throw invalid(value);
        }
        final char unit = v.charAt(v.length() - 1);
        final int shift = switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            case 't' -> 40;
            default -> 0;
        };
        try {
            final long number = Long.parseLong(shift == 0 ? v : v.substring(0, v.length() - 1));
            if (number < 1 || number > (Long.MAX_VALUE >> shift)) {
                throw invalid(value);
            }
            return number << shift;
        } catch (final NumberFormatException e) {
            throw invalid(value);
        }
    }

    private static TypeConversionException invalid(final String value) {
        return new TypeConversionException("'" + value + "' is not a size: write e.g. 512m, 10g or 1048576 (bytes)");
    }
}
