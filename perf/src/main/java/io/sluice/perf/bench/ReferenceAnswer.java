package io.sluice.perf.bench;

import io.sluice.engine.exec.QueryResult;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The answer other answers of a query are checked against: DuckDB's over JDBC (column labels and
 * every row, each cell read with {@code getObject}, so a timed fetch pays for materializing the
 * whole result as Sluice does), or a Sluice result copied into plain values.
 *
 * @param columns the column labels, in order
 * @param rows    the rows, in the order DuckDB returned them
 */
public record ReferenceAnswer(List<String> columns, List<List<Object>> rows) {
    public ReferenceAnswer {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** A Sluice result's values, kept apart from its batches. */
    public static ReferenceAnswer of(final QueryResult result) {
        return new ReferenceAnswer(result.rowType().names(), result.rows());
    }

    /** Runs SQL on a connection and reads the whole result. */
    public static ReferenceAnswer fetch(final Connection duck, final String sql) throws SQLException {
        try (Statement statement = duck.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            final ResultSetMetaData meta = rs.getMetaData();
            final int count = meta.getColumnCount();
            final List<String> columns = new ArrayList<>(count);
            for (int c = 1; c <= count; c++) {
                columns.add(meta.getColumnLabel(c));
            }
            final List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                final Object[] row = new Object[count];
                for (int c = 0; c < count; c++) {
                    row[c] = rs.getObject(c + 1);
                }
                rows.add(Arrays.asList(row));
            }
            return new ReferenceAnswer(columns, rows);
        }
    }
}
