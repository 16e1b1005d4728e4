package io.sluice.perf.mysql;

import io.sluice.engine.exec.QueryResult;
import java.util.List;

/**
 * A statement's rows and its result's column names as SQL names them, which a client reads as its column labels:
 * two columns may share one ({@code SELECT a.x, b.x} answers {@code x} and {@code x}, as MySQL does), while the
 * rows' own row type keeps them unique ({@code x}, {@code x0}).
 *
 * @param rows    the result, in order
 * @param columns one name per column of {@code rows}
 */
public record StatementResult(QueryResult rows, List<String> columns) {
    public StatementResult {
        columns = List.copyOf(columns);
        if (columns.size() != rows.rowType().size()) {
            throw new IllegalArgumentException(columns.size() + " column names for the " + rows.rowType().size()
                    + " columns " + rows.rowType().names());
        }
    }
}
