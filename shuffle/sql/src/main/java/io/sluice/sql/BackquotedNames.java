package io.sluice.sql;

/**
 * Names quoted with backquotes as MySQL and Spark SQL write them ({@code `order count `}): the
 * same text with each backquote outside string literals and comments made a double quote, the
 * standard quoting Sluice's parser and DuckDB read, with the same names. One character for one, so
 * that every line and column of the text stays where it was.
 */
public final class BackquotedNames {
    private BackquotedNames() {
    }

    /** {@code sql} with its backquoted names double-quoted; string literals and comments kept as they are. */
    public static String asDoubleQuoted(final String sql) {
        final StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            final char c = sql.charAt(i);
            if (c == '\'') {
                // A literal runs to the next quote that is not doubled ('it''s').
                int end = i + 1;
                while (end < sql.length()) {
                    if (sql.charAt(end) == '\'') {
                        if (end + 1 < sql.length() && sql.charAt(end + 1) == '\'') {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                end = Math.min(end + 1, sql.length());
                out.append(sql, i, end);
                i = end;
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                final int newline = sql.indexOf('\n', i);
                final int end = newline < 0 ? sql.length() : newline;
                out.append(sql, i, end);
                i = end;
            } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
                final int close = sql.indexOf("*/", i + 2);
                final int end = close < 0 ? sql.length() : close + 2;
                out.append(sql, i, end);
                i = end;
            } else if (c == '"') {
                // A double-quoted name runs to its closing quote; a backquote inside it is part of the name.
                final int close = sql.indexOf('"', i + 1);
                final int end = close < 0 ? sql.length() : close + 1;
                out.append(sql, i, end);
                i = end;
            } else {
                out.append(c == '`' ? '"' : c);
                i++;
            }
        }
        return out.toString();
    }
}
