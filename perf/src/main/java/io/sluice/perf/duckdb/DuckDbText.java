package io.sluice.perf.duckdb;

import io.sluice.sql.BackquotedNames;
import java.util.Locale;
import java.util.Set;

/**
 * A statement Sluice reads as DuckDB is given it: backquoted names double-quoted ({@link BackquotedNames}),
 * and the words DuckDB's grammar reserves that Apache Spark SQL's TPC-DS texts use as names double-quoted too
 * ({@code returns} in Q77, an alias without {@code AS} ({@code at}) in Q90), outside string literals, quoted
 * names and comments. The names stay the same (DuckDB matches quoted names whatever their case), so both
 * engines answer the same question with the same column names.
 */
public final class DuckDbText {
    /** The words DuckDB refuses where the texts use them as names; lower case. */
    private static final Set<String> RESERVED = Set.of("returns", "at");

    private DuckDbText() {
    }

    /** {@code sql} as DuckDB reads it. */
    public static String of(final String sql) {
        final String text = BackquotedNames.asDoubleQuoted(sql);
        final StringBuilder out = new StringBuilder(text.length() + 8);
        int i = 0;
        while (i < text.length()) {
            final char c = text.charAt(i);
            final int end;
            if (c == '\'') {
                end = closing(text, i, '\'');
            } else if (c == '"') {
                end = closing(text, i, '"');
            } else if (c == '-' && text.startsWith("--", i)) {
                final int newline = text.indexOf('\n', i);
                end = newline < 0 ? text.length() : newline;
            } else if (c == '/' && text.startsWith("/*", i)) {
                final int close = text.indexOf("*/", i + 2);
                end = close < 0 ? text.length() : close + 2;
            } else if (Character.isLetter(c) || c == '_') {
                int e = i + 1;
                while (e < text.length() && (Character.isLetterOrDigit(text.charAt(e)) || text.charAt(e) == '_')) {
                    e++;
                }
                final String word = text.substring(i, e);
                out.append(RESERVED.contains(word.toLowerCase(Locale.ROOT)) ? '"' + word + '"' : word);
                i = e;
                continue;
            } else {
                end = i + 1;
            }
            out.append(text, i, end);
            i = end;
        }
        return out.toString();
    }

    /** Where a literal or quoted name that opens at {@code from} ends: past its closing quote, a doubled one kept inside. */
    private static int closing(final String text, final int from, final char quote) {
        int end = from + 1;
        while (end < text.length()) {
            if (text.charAt(end) == quote) {
                if (end + 1 < text.length() && text.charAt(end + 1) == quote) {
                    end += 2;
                    continue;
                }
                return end + 1;
            }
            end++;
        }
        return text.length();
    }
}
