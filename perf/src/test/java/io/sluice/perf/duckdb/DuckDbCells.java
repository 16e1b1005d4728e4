package io.sluice.perf.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * How one cell of DuckDB's answer is compared with the same cell of another answer: exact for integers,
 * decimals, dates and strings, within 1e-9 relative for doubles, NULL where DuckDB has NULL.
 */
public final class DuckDbCells {
    private DuckDbCells() {
    }

    /** Asserts that {@code actual} equals DuckDB's {@code expected} cell; {@code where} names the cell. */
    public static void assertSameCell(final Object expected, final Object actual, final String where) {
        if (expected == null) {
            assertThat(actual).as(where).isNull();
            return;
        }
        assertThat(actual).as(where).isNotNull();
        if (expected instanceof Double || expected instanceof Float) {
            assertThat(actual).as(where).isInstanceOf(Double.class);
            final double e = ((Number) expected).doubleValue();
            final double a = (Double) actual;
            assertThat(Math.abs(a - e)).as(where + ": " + a + " vs " + e).isLessThanOrEqualTo(1e-9 * Math.abs(e));
        } else if (expected instanceof Number n) {
            assertThat(actual).as(where).isInstanceOf(Number.class);
            assertThat(decimal(actual)).as(where).isEqualByComparingTo(decimal(n));
        } else if (expected instanceof String s) {
            assertThat(actual).as(where).isEqualTo(s);
        } else {
            // Dates: the Java types differ by driver and version (LocalDate, java.sql.Date), their text form does not.
            assertThat(String.valueOf(actual)).as(where).isEqualTo(expected.toString());
        }
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
