package io.sluice.engine.expr;

import java.nio.charset.StandardCharsets;

/**
 * {@code e LIKE pattern} where the pattern's wildcards are {@code %} only: it is cut at each
 * {@code %} into parts that must appear in order, the first at the start unless the pattern
 * begins with {@code %}, the last at the end unless it ends with {@code %}. That covers prefix,
 * suffix, contains and TPC-H's {@code '%special%requests%'}.
 */
public record Like(Expr value, String pattern) implements Expr {
    public Like {
        if (pattern.indexOf('_') >= 0 || pattern.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("LIKE '" + pattern + "': only % wildcards are supported, not _ or escapes");
        }
    }

    @Override
    public Evaluator bind(final RowType input) {
        final boolean anchoredStart = !pattern.startsWith("%");
        final boolean anchoredEnd = !pattern.endsWith("%");
        final String[] pieces = pattern.split("%", -1);
        final byte[][] parts = new byte[pieces.length][];
        for (int i = 0; i < pieces.length; i++) {
            parts[i] = pieces[i].getBytes(StandardCharsets.UTF_8);
        }
        return new StringPredicate(value.bind(input)) {
            @Override
            boolean test(final byte[] bytes, final int offset, final int length) {
                final int end = offset + length;
                int pos = offset;
                final int last = parts.length - 1;
                for (int p = 0; p <= last; p++) {
                    final byte[] part = parts[p];
                    if (p == 0 && anchoredStart) {
                        if (!startsWith(bytes, pos, end, part)) {
                            return false;
                        }
                        pos += part.length;
                    } else if (p == last && anchoredEnd) {
                        return end - pos >= part.length && startsWith(bytes, end - part.length, end, part);
                    } else {
                        final int at = indexOf(bytes, pos, end, part);
                        if (at < 0) {
                            return false;
                        }
                        pos = at + part.length;
                    }
                }
                return true;
            }

            @Override
            public String toString() {
                return Like.this.toString();
            }
        };
    }

    private static boolean startsWith(final byte[] bytes, final int from, final int end, final byte[] part) {
        if (end - from < part.length) {
            return false;
        }
        for (int i = 0; i < part.length; i++) {
            if (bytes[from + i] != part[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(final byte[] bytes, final int from, final int end, final byte[] part) {
        final int limit = end - part.length;
        for (int i = from; i <= limit; i++) {
            if (startsWith(bytes, i, end, part)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return value + " LIKE '" + pattern + "'";
    }
}
