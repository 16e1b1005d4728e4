package io.sluice.perf.bench;

import io.sluice.engine.exec.QueryResult;
import io.sluice.perf.text.Plural;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;

/**
 * Compares a Sluice result with a reference answer to the same query (DuckDB's, or another Sluice
 * run's): the same column names and the same rows in the same order, exact for integers,
 * decimals, dates and strings and within 1e-9 relative for doubles (averages). The same rules as
 * the query tests' oracle.
 */
public final class AnswerCheck {
    /** Largest relative difference accepted between two doubles. */
    public static final double DOUBLE_TOLERANCE = 1e-9;

    private AnswerCheck() {
    }

    /** The first difference, as one line naming the row and column, or null when the answers are equal. */
    public static String difference(final ReferenceAnswer expected, final QueryResult actual) {
        return difference(expected, actual, actual.rowType().names());
    }

    /**
     * As {@link #difference(ReferenceAnswer, QueryResult)}, the result's columns named {@code names}: SQL's
     * names of a planned text, which two columns may share.
     */
    public static String difference(final ReferenceAnswer expected, final QueryResult actual,
                                    final List<String> names) {
        if (!names.equals(expected.columns())) {
            return "columns " + names + " but the reference has " + expected.columns();
        }
        final int rows = Math.min(expected.rows().size(), actual.rowCount());
        for (int r = 0; r < rows; r++) {
            final List<Object> want = expected.rows().get(r);
            for (int c = 0; c < names.size(); c++) {
                final Object got = actual.value(r, c);
                if (!same(want.get(c), got)) {
                    return String.format(Locale.ROOT, "row %d column %s: Sluice %s, reference %s", r, names.get(c),
                            got, want.get(c));
                }
            }
        }
        if (expected.rows().size() != actual.rowCount()) {
            return Plural.of(actual.rowCount(), "row") + " but the reference has " + expected.rows().size();
        }
        return null;
    }

    /** Whether a Sluice cell equals the expected one under the rules above. */
    static boolean same(final Object expected, final Object actual) {
        if (expected == null || actual == null) {
            return expected == actual;
        }
        if (expected instanceof Double d) {
            // NaN (0.0 / 0.0 in TPC-DS Q12's ratio) is the same NaN in both.
            return actual instanceof Double a && (Math.abs(a - d) <= DOUBLE_TOLERANCE * Math.abs(d)
                    || Double.isNaN(a) && Double.isNaN(d));
        }
        if (expected instanceof Number n) {
            return (actual instanceof Long || actual instanceof BigDecimal)
                    && decimal(actual).compareTo(decimal(n)) == 0;
        }
        if (expected instanceof String s) {
            return s.equals(actual);
        }
        // Dates: DuckDB's JDBC type varies by version, its text form does not.
        return String.valueOf(actual).equals(expected.toString());
    }

    private static BigDecimal decimal(final Object n) {
        if (n instanceof BigDecimal b) {
            return b;
        }
        if (n instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        return BigDecimal.valueOf(((Number) n).longValue());
    }
}
