package io.sluice.perf.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL text cut into statements at each {@code ;} that ends one: outside 'string literals' (with their
 * doubled quotes), "quoted identifiers", {@code --} line comments and block comments. What follows the
 * last {@code ;} is the rest: an unfinished statement at the prompt, the last statement of a script
 * that need not end with {@code ;}. Statements of only blanks and comments are left out.
 *
 * @param statements the complete statements, in order, each without its {@code ;}
 * @param rest       the text after the last statement's {@code ;}, as it was
 */
record SqlScript(List<String> statements, String rest) {
    SqlScript {
        statements = List.copyOf(statements);
    }

    /** Cuts {@code text} into statements. */
    static SqlScript split(final CharSequence text) {
        final List<String> statements = new ArrayList<>();
        int start = 0;
        int i = 0;
        final int n = text.length();
        while (i < n) {
            final char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                i = closing(text, i + 1, c);
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                final int end = indexOf(text, "*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                if (c == ';') {
                    final String statement = text.subSequence(start, i).toString();
                    if (!isBlank(statement)) {
                        statements.add(statement.strip());
                    }
                    start = i + 1;
                }
                i++;
            }
        }
        return new SqlScript(statements, text.subSequence(Math.min(start, n), n).toString());
    }

    /** Whether the rest holds something besides blanks and comments: a statement without its {@code ;}. */
    boolean hasRest() {
        return !isBlank(rest);
    }

    /** Whether a piece of SQL holds only blanks and comments. */
    static boolean isBlank(final String sql) {
        int i = 0;
        final int n = sql.length();
        while (i < n) {
            final char c = sql.charAt(i);
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                final int end = indexOf(sql, "*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else {
                return false;
            }
        }
        return true;
    }

    /** The index after the quote that closes one opened before {@code from}; a doubled quote stays inside. */
    private static int closing(final CharSequence text, final int from, final char quote) {
        int i = from;
        while (i < text.length()) {
            if (text.charAt(i) == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return text.length();
    }

    private static int indexOf(final CharSequence text, final String what, final int from) {
        for (int i = from; i + what.length() <= text.length(); i++) {
            if (text.subSequence(i, i + what.length()).toString().equals(what)) {
                return i;
            }
        }
        return -1;
    }
}
