package io.sluice.perf.cli;

import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * A small streaming JSON writer: objects, arrays, strings (escaped per RFC 8259), numbers,
 * booleans and null, indented two spaces per level. Misuse (a value where a name is due, an
 * unclosed scope) is an {@link IllegalStateException}, so a document it returns is well formed.
 */
final class JsonWriter {
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final StringBuilder out = new StringBuilder();
    private boolean[] isObject = new boolean[8];
    private int[] count = new int[8];
    private int depth;
    private boolean afterName;
    private boolean rootWritten;

    /** Opens an object. */
    JsonWriter beginObject() {
        beforeValue();
        out.append('{');
        push(true);
        return this;
    }

    /** Closes the innermost object. */
    JsonWriter endObject() {
        return end(true, '}');
    }

    /** Opens an array. */
    JsonWriter beginArray() {
        beforeValue();
        out.append('[');
        push(false);
        return this;
    }

    /** Closes the innermost array. */
    JsonWriter endArray() {
        return end(false, ']');
    }

    /** Writes the name of the next member of the innermost object. */
    JsonWriter name(final String name) {
        if (depth == 0 || !isObject[depth - 1] || afterName) {
            throw new IllegalStateException("a name belongs directly inside an object, before its value");
        }
        if (count[depth - 1] > 0) {
            out.append(',');
        }
        newline();
        quote(name, out);
        out.append(": ");
        afterName = true;
        return this;
    }

    /** Writes a string, or null. */
    JsonWriter value(final String value) {
        beforeValue();
        if (value == null) {
            out.append("null");
        } else {
            quote(value, out);
        }
        return this;
    }

    /** Writes an integer. */
    JsonWriter value(final long value) {
        beforeValue();
        out.append(value);
        return this;
    }

    /** Writes a boolean. */
    JsonWriter value(final boolean value) {
        beforeValue();
        out.append(value);
        return this;
    }

    /** Writes null. */
    JsonWriter nullValue() {
        beforeValue();
        out.append("null");
        return this;
    }

    /** Writes a number given as its exact decimal text, e.g. {@code 901.00}. */
    JsonWriter number(final String literal) {
        if (!NUMBER.matcher(literal).matches()) {
            throw new IllegalArgumentException("'" + literal + "' is not a JSON number");
        }
        beforeValue();
        out.append(literal);
        return this;
    }

    /** The document, once every scope is closed. */
    @Override
    public String toString() {
        if (depth != 0 || !rootWritten) {
            throw new IllegalStateException("the JSON document is incomplete (" + depth + " scopes open)");
        }
        return out + "\n";
    }

    /** Appends a string as a JSON string literal: quotes, backslash and control characters escaped. */
    static void quote(final String s, final StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029' || Character.isSurrogate(c) && !pairedAt(s, i)) {
                        sb.append("\\u").append(HEX[c >> 12 & 0xF]).append(HEX[c >> 8 & 0xF])
                                .append(HEX[c >> 4 & 0xF]).append(HEX[c & 0xF]);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** Whether the surrogate at {@code i} is half of a valid pair (so it can be written as is). */
    private static boolean pairedAt(final String s, final int i) {
        final char c = s.charAt(i);
        return Character.isHighSurrogate(c)
                ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private void beforeValue() {
        if (depth == 0) {
            if (rootWritten) {
                throw new IllegalStateException("a JSON document has one root value");
            }
            rootWritten = true;
            return;
        }
        if (isObject[depth - 1]) {
            if (!afterName) {
                throw new IllegalStateException("a value inside an object needs a name first");
            }
            afterName = false;
        } else {
            if (count[depth - 1] > 0) {
                out.append(',');
            }
            newline();
        }
        count[depth - 1]++;
    }

    private void push(final boolean object) {
        if (depth == isObject.length) {
            isObject = Arrays.copyOf(isObject, depth * 2);
            count = Arrays.copyOf(count, depth * 2);
        }
        isObject[depth] = object;
        count[depth] = 0;
        depth++;
    }

    private JsonWriter end(final boolean object, final char close) {
        if (depth == 0 || isObject[depth - 1] != object || afterName) {
            throw new IllegalStateException("no open " + (object ? "object" : "array") + " to close here");
        }
        final boolean empty = count[depth - 1] == 0;
        depth--;
        if (!empty) {
            newline();
        }
        out.append(close);
        return this;
    }

    private void newline() {
        out.append('\n');
        for (int i = 0; i < depth; i++) {
            out.append("  ");
        }
    }
}
