package io.sluice.perf.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser for tests, written independently of {@link JsonWriter}: objects become
 * {@link Map}s, arrays {@link List}s, numbers {@link Num} (their exact text), plus String, Boolean
 * and null. Anything RFC 8259 does not allow (trailing commas, raw control characters, bad
 * escapes, trailing text) throws.
 */
public final class MiniJson {
    /** A JSON number, kept as written. */
    public record Num(String text) {
    }

    private final String s;
    private int i;

    private MiniJson(final String s) {
        this.s = s;
    }

    public static Object parse(final String text) {
        final MiniJson p = new MiniJson(text);
        final Object value = p.value();
        p.ws();
        if (p.i != text.length()) {
            throw p.error("trailing text");
        }
        return value;
    }

    private Object value() {
        ws();
        if (i >= s.length()) {
            throw error("value expected");
        }
        final char c = s.charAt(i);
        if (c == '{') {
            return object();
        }
        if (c == '[') {
            return array();
        }
        if (c == '"') {
            return string();
        }
        if (s.startsWith("true", i)) {
            i += 4;
            return Boolean.TRUE;
        }
        if (s.startsWith("false", i)) {
            i += 5;
            return Boolean.FALSE;
        }
        if (s.startsWith("null", i)) {
            i += 4;
            return null;
        }
        return number();
    }

    private Map<String, Object> object() {
        final Map<String, Object> map = new LinkedHashMap<>();
        i++;
        ws();
        if (peek() == '}') {
            i++;
            return map;
        }
        while (true) {
            ws();
            if (peek() != '"') {
                throw error("member name expected");
            }
            final String name = string();
            ws();
            expect(':');
            if (map.containsKey(name)) {
                throw error("duplicate member " + name);
            }
            map.put(name, value());
            ws();
            if (peek() == ',') {
                i++;
                continue;
            }
            expect('}');
            return map;
        }
    }

    private List<Object> array() {
        final List<Object> list = new ArrayList<>();
        i++;
        ws();
        if (peek() == ']') {
            i++;
            return list;
        }
        while (true) {
            list.add(value());
            ws();
            if (peek() == ',') {
                i++;
                continue;
            }
            expect(']');
            return list;
        }
    }

    private String string() {
        expect('"');
        final StringBuilder sb = new StringBuilder();
        while (true) {
            if (i >= s.length()) {
                throw error("unterminated string");
            }
            final char c = s.charAt(i++);
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                throw error("raw control character in a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            final char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private Num number() {
        final int start = i;
        if (peek() == '-') {
            i++;
        }
        if (peek() == '0') {
            i++;
        } else {
            digits();
        }
        if (peek() == '.') {
            i++;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            digits();
        }
        return new Num(s.substring(start, i));
    }

    private void digits() {
        final int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) {
            i++;
        }
        if (i == start) {
            throw error("digit expected");
        }
    }

    private void ws() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\n' || s.charAt(i) == '\r'
                || s.charAt(i) == '\t')) {
            i++;
        }
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private void expect(final char c) {
        if (peek() != c) {
            throw error("'" + c + "' expected");
        }
        i++;
    }

    private IllegalArgumentException error(final String problem) {
        return new IllegalArgumentException(problem + " at offset " + i + " of: " + s);
    }
}
