package io.sluice.perf.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.duckdb.DuckDbCells;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares what a MySQL client read through JDBC with DuckDB's answer to the same statement: the same
 * column labels and the same rows in the same order, exact for integers, decimals, dates and strings,
 * within 1e-9 relative for doubles, NULL where DuckDB has NULL.
 */
public final class JdbcAnswers {
    private JdbcAnswers() {
    }

    /** Column labels, then each row's cells as Java values (getObject). */
    public static List<List<Object>> read(final ResultSet rs) throws SQLException {
        final ResultSetMetaData meta = rs.getMetaData();
        final List<List<Object>> rows = new ArrayList<>();
        final List<Object> labels = new ArrayList<>();
        for (int c = 1; c <= meta.getColumnCount(); c++) {
            labels.add(meta.getColumnLabel(c));
        }
        rows.add(labels);
        while (rs.next()) {
            final List<Object> row = new ArrayList<>();
            for (int c = 1; c <= meta.getColumnCount(); c++) {
                row.add(rs.getObject(c));
            }
            rows.add(row);
        }
        return rows;
    }

    /** Runs {@code sql} on both connections and compares the answers. */
    public static void assertSame(final String name, final Connection duck, final Connection actual, final String sql)
            throws SQLException {
        final List<List<Object>> expected;
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            expected = read(rs);
        }
        final List<List<Object>> got;
        try (Statement s = actual.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            got = read(rs);
        }
        assertSame(name, expected, got);
    }

    /** Compares DuckDB's rows (labels first) with a client's. */
    public static void assertSame(final String name, final List<List<Object>> expected, final List<List<Object>> actual) {
        assertThat(actual.get(0)).as("%s column labels", name).isEqualTo(expected.get(0));
        assertThat(actual.size() - 1).as("%s row count", name).isEqualTo(expected.size() - 1);
        for (int r = 1; r < expected.size(); r++) {
            for (int c = 0; c < expected.get(r).size(); c++) {
                DuckDbCells.assertSameCell(expected.get(r).get(c), actual.get(r).get(c), name + " row " + (r - 1) + " column "
                        + expected.get(0).get(c));
            }
        }
    }
}
