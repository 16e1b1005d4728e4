package io.sluice.dispatch.cluster;

import java.nio.charset.StandardCharsets;

/**
 * The EXPLAIN text a CN sends in its {@code Finished} message, cut to fit one control message: the plan of a large
 * query (a TPC-DS query whose grouping sets repeat a subquery, say) can render to megabytes, and a query must not
 * fail because its EXPLAIN does not fit.
 */
final class ShippedExplain {
    /** The property whose value bounds a control message (a term length is 8 times the largest message). */
    static final String TERM_LENGTH_PROPERTY = "sluice.transport.term.length";

    private ShippedExplain() {
    }

    /**
     * The text, or its first lines and a last line saying what was cut, within {@code maxBytes} bytes of UTF-8.
     *
     * @param maxBytes the most bytes the text may take, at least 256
     */
    static String fit(final String explain, final int maxBytes) {
        if (explain == null || explain.length() * 3L <= maxBytes) {
            return explain;
        }
        final byte[] bytes = explain.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= maxBytes) {
            return explain;
        }
        final long lines = explain.lines().count();
        final String note = "... EXPLAIN cut here: the whole text has " + lines + " lines and " + bytes.length
                + " bytes, more than a control message takes; raise " + TERM_LENGTH_PROPERTY + " to see all of it\n";
        // Characters take at most 3 bytes of UTF-8 in the JVM's strings (a surrogate pair 4 for 2 characters).
        int end = Math.max(0, (maxBytes - note.length() * 3) / 3);
        final int newline = explain.lastIndexOf('\n', end - 1);
        end = newline < 0 ? end : newline + 1;
        return explain.substring(0, end) + note;
    }
}
