package io.sluice.perf.cli;

import io.sluice.format.ColumnType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * Turns zonemap keys back into the values they stand for: integers as they are, decimals with
 * their exact scale ({@code 901.00}), dates as {@code yyyy-mm-dd}, strings as the prefix the key
 * keeps (see {@link io.sluice.format.StringKey}). A string key that uses all 8 bytes stands for
 * every string starting with them, so it is marked as a prefix; a shorter one is the whole string.
 */
final class KeyFormat {
    private static final int KEY_BYTES = 8;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private KeyFormat() {
    }

    /** The value text of a key (for strings, the prefix, unquoted). */
    static String text(final ColumnType type, final long key) {
        return switch (type.kind()) {
            case INT64, INT32 -> Long.toString(key);
            case DECIMAL, DECIMAL128 -> BigDecimal.valueOf(key, type.scale()).toPlainString();
            case DATE -> LocalDate.ofEpochDay(key).toString();
            case STRING -> stringPrefix(key);
        };
    }

    /** Whether a key is a prefix of longer values rather than a whole value (strings of 8+ bytes). */
    static boolean isPrefix(final ColumnType type, final long key) {
        return type.kind() == io.sluice.format.TypeKind.STRING && (key & 0xFF) != 0;
    }

    /** How the text report shows a key: strings quoted and escaped, prefixes followed by {@code +}. */
    static String display(final ColumnType type, final long key) {
        if (type.kind() != io.sluice.format.TypeKind.STRING) {
            return text(type, key);
        }
        final StringBuilder sb = new StringBuilder();
        JsonWriter.quote(stringPrefix(key), sb);
        return isPrefix(type, key) ? sb.append('+').toString() : sb.toString();
    }

    /** The bytes of a string key as text, trailing zero bytes and a cut-off UTF-8 sequence dropped. */
    private static String stringPrefix(final long key) {
        final byte[] bytes = new byte[KEY_BYTES];
        int length = 0;
        for (int i = 0; i < KEY_BYTES; i++) {
            bytes[i] = (byte) (key >>> (56 - 8 * i));
            if (bytes[i] != 0) {
                length = i + 1;
            }
        }
        if (length == KEY_BYTES) {
            length = withoutCutCharacter(bytes, length);
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    /** The length without a trailing multi-byte UTF-8 character the 8-byte cut left incomplete. */
    private static int withoutCutCharacter(final byte[] bytes, final int length) {
        int lead = length - 1;
        while (lead > 0 && (bytes[lead] & 0xC0) == 0x80 && length - lead < 4) {
            lead--;
        }
        final int b = bytes[lead] & 0xFF;
        final int needed = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
        return lead + needed > length ? lead : length;
    }

    /**
     * How a cut point reads: like {@link #text}, except that a string cut point shows its bytes,
     * trailing zero bytes dropped, printable ASCII as is and any other byte (a backslash included)
     * as {@code \xHH}. A cut between two keys need not be valid UTF-8, and decoding it would lose
     * the bytes that place it.
     */
    static String cutPoint(final ColumnType type, final long key) {
        if (type.kind() != io.sluice.format.TypeKind.STRING) {
            return text(type, key);
        }
        int length = KEY_BYTES;
        while (length > 0 && ((key >>> (64 - 8 * length)) & 0xFF) == 0) {
            length--;
        }
        final StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            final int b = (int) (key >>> (56 - 8 * i)) & 0xFF;
            if (b >= 0x20 && b < 0x7F && b != '\\') {
                sb.append((char) b);
            } else {
                sb.append("\\x").append(HEX[b >> 4]).append(HEX[b & 0xF]);
            }
        }
        return sb.toString();
    }

    /** A cut point as a JSON value: numbers stay numbers, dates and strings ({@link #cutPoint}) become JSON strings. */
    static String cutPointJson(final ColumnType type, final long key) {
        return switch (type.kind()) {
            case INT64, INT32, DECIMAL, DECIMAL128 -> text(type, key);
            case DATE, STRING -> jsonString(cutPoint(type, key));
        };
    }

    /** A JSON string literal. */
    static String jsonString(final String s) {
        final StringBuilder sb = new StringBuilder(s.length() + 2);
        JsonWriter.quote(s, sb);
        return sb.toString();
    }
}
