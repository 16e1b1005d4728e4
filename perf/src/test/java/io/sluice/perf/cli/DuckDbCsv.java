package io.sluice.perf.cli;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's answer to a statement as the lines {@code sluice sql --format csv} prints for it: the column
 * labels, then each row's cells as DuckDB's JDBC driver gives them as text, comma-separated. For the
 * tests that compare what a command printed with the oracle (statements without doubles or quoting).
 */
public final class DuckDbCsv {
    private DuckDbCsv() {
    }

    /** Runs {@code sql} on {@code duck} and returns its header line and rows. */
    public static List<String> of(final Connection duck, final String sql) throws SQLException {
        final List<String> lines = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            final ResultSetMetaData meta = rs.getMetaData();
            final List<String> header = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                header.add(meta.getColumnLabel(i));
            }
            lines.add(String.join(",", header));
            while (rs.next()) {
                final List<String> row = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                lines.add(String.join(",", row));
            }
        }
        return lines;
    }
}
