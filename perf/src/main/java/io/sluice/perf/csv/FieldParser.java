package io.sluice.perf.csv;

import io.sluice.format.ColumnType;
import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * Parses the text of one CSV field into the value a column stores: integers range-checked,
 * decimals exactly into scaled longs (never through a double), dates into days since 1970-01-01.
 * Each method throws {@link IllegalArgumentException} saying what was expected.
 */
final class FieldParser {
    private static final long[] POWERS_OF_TEN = new long[ColumnType.MAX_DECIMAL_PRECISION + 1];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private FieldParser() {
    }

    /** An int64: ASCII digits with an optional sign. */
    static long parseInt64(final String text) {
        checkInteger(text, "int64");
        try {
            return Long.parseLong(text);
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("is out of range for int64 [" + Long.MIN_VALUE + ", " + Long.MAX_VALUE + "]");
        }
    }

    /** An int32: ASCII digits with an optional sign, within the 32-bit range. */
    static int parseInt32(final String text) {
        checkInteger(text, "int32");
        final long value;
        try {
            value = Long.parseLong(text);
        } catch (final NumberFormatException e) {
            throw int32Range();
        }
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw int32Range();
        }
        return (int) value;
    }

    private static IllegalArgumentException int32Range() {
        return new IllegalArgumentException("is out of range for int32 [" + Integer.MIN_VALUE + ", "
                + Integer.MAX_VALUE + "]");
    }

    private static void checkInteger(final String text, final String type) {
        final int start = signLength(text);
        if (start == text.length() || !asciiDigits(text, start, text.length())) {
            throw new IllegalArgumentException("is not an " + type + ": expected digits with an optional sign, e.g. -42");
        }
    }

    /**
     * A decimal(precision, scale) as a long scaled by 10^scale: {@code [+-]digits[.digits]} with at
     * most {@code precision - scale} integer digits (leading zeros not counted) and at most
     * {@code scale} fractional digits. No exponent, no grouping.
     */
    static long parseDecimal(final String text, final int precision, final int scale) {
        final int fracDigits = checkDecimal(text, precision, scale);
        final int start = signLength(text);
        final int dot = text.indexOf('.', start);
        final int intEnd = dot < 0 ? text.length() : dot;
        final int fracStart = dot < 0 ? text.length() : dot + 1;
        long value = 0;
        for (int i = start; i < intEnd; i++) {
            value = value * 10 + (text.charAt(i) - '0');
        }
        long fraction = 0;
        for (int i = fracStart; i < text.length(); i++) {
            fraction = fraction * 10 + (text.charAt(i) - '0');
        }
        final long scaled = value * POWERS_OF_TEN[scale] + fraction * POWERS_OF_TEN[scale - fracDigits];
        return text.charAt(0) == '-' ? -scaled : scaled;
    }

    /**
     * A decimal(precision, scale) of 19 to 38 digits as its 128-bit integer scaled by 10^scale, under
     * the rules of {@link #parseDecimal}.
     */
    static java.math.BigInteger parseDecimal128(final String text, final int precision, final int scale) {
        checkDecimal(text, precision, scale);
        return new java.math.BigDecimal(text).setScale(scale).unscaledValue();
    }

    /** Checks the text of a decimal(precision, scale) and returns its count of fractional digits. */
    private static int checkDecimal(final String text, final int precision, final int scale) {
        final String expected = "decimal(" + precision + "," + scale + ")";
        final int start = signLength(text);
        final int dot = text.indexOf('.', start);
        final int intEnd = dot < 0 ? text.length() : dot;
        final int fracStart = dot < 0 ? text.length() : dot + 1;
        if (!asciiDigits(text, start, intEnd) || !asciiDigits(text, fracStart, text.length())
                || intEnd - start + text.length() - fracStart == 0) {
            throw new IllegalArgumentException("is not a " + expected + ": expected digits with an optional sign"
                    + " and decimal point, e.g. -1234.50 (no exponent, no thousands separators)");
        }
        int significant = start;
        while (significant < intEnd && text.charAt(significant) == '0') {
            significant++;
        }
        final int intDigits = intEnd - significant;
        final int fracDigits = text.length() - fracStart;
        if (intDigits > precision - scale) {
            throw new IllegalArgumentException("has " + intDigits + " integer digits but " + expected
                    + " allows " + (precision - scale));
        }
        if (fracDigits > scale) {
            throw new IllegalArgumentException("has " + fracDigits + " fractional digits but " + expected
                    + " allows " + scale + " (round the value before importing)");
        }
        return fracDigits;
    }

    /** A date written {@code yyyy-mm-dd}, as days since 1970-01-01. */
    static int parseDate(final String text) {
        if (text.length() != 10 || text.charAt(4) != '-' || text.charAt(7) != '-'
                || !asciiDigits(text, 0, 4) || !asciiDigits(text, 5, 7) || !asciiDigits(text, 8, 10)) {
            throw new IllegalArgumentException("is not a date: expected yyyy-mm-dd, e.g. 1998-12-01");
        }
        try {
            return (int) LocalDate.of(Integer.parseInt(text, 0, 4, 10), Integer.parseInt(text, 5, 7, 10),
                    Integer.parseInt(text, 8, 10, 10)).toEpochDay();
        } catch (final DateTimeException e) {
            throw new IllegalArgumentException("is not a calendar date (" + e.getMessage() + ")");
        }
    }

    private static int signLength(final String text) {
        return !text.isEmpty() && (text.charAt(0) == '-' || text.charAt(0) == '+') ? 1 : 0;
    }

    private static boolean asciiDigits(final String text, final int from, final int to) {
        for (int i = from; i < to; i++) {
            final char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
