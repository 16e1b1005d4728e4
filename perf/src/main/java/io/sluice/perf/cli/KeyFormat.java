package io.sluice.perf.cli;

import io.sluice.storage.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * Shows zonemap keys the way their column type reads: dates as yyyy-mm-dd, decimals with their
 * scale, strings as the up to 8-byte prefix the key stands for.
 */
final class KeyFormat {
    private KeyFormat() {
    }

    /** The key as text: a number, a date, a decimal, or the string prefix it stands for. */
    static String text(final ColumnType type, final long key) {
        return switch (type.kind()) {
            case INT64, INT32 -> Long.toString(key);
            case DATE -> LocalDate.ofEpochDay(key).toString();
            case DECIMAL -> BigDecimal.valueOf(key, type.scale()).toPlainString();
            case STRING -> prefix(key);
        };
    }

    /**
     * The bytes of a string prefix key, trailing zero bytes dropped: printable ASCII as is, any
     * other byte as {@code \xHH} (a cut point between two keys need not be valid UTF-8).
     */
    static String prefix(final long key) {
        int length = 8;
        while (length > 0 && ((key >>> (64 - 8 * length)) & 0xFF) == 0) {
            length--;
        }
        final StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            final int b = (int) (key >>> (56 - 8 * i)) & 0xFF;
            if (b >= 0x20 && b < 0x7F && b != '\\') {
                sb.append((char) b);
            } else {
                sb.append(String.format("\\x%02x", b));
            }
        }
        return sb.toString();
    }

    /** The key as a JSON value: numbers stay numbers, dates and strings become JSON strings. */
    static String json(final ColumnType type, final long key) {
        return switch (type.kind()) {
            case INT64, INT32, DECIMAL -> text(type, key);
            case DATE, STRING -> jsonString(text(type, key));
        };
    }

    /** A JSON string literal, escaping quotes, backslashes and control characters. */
    static String jsonString(final String s) {
        final StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
