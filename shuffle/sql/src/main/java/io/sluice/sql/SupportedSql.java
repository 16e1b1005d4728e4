package io.sluice.sql;

import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Refuses, before validation, statements that are not queries: DDL, INSERT, UPDATE, DELETE,
 * MERGE and the rest. The error names the statement's kind and where it starts.
 */
final class SupportedSql {
    private SupportedSql() {
    }

    /** Throws a {@link SqlException} of kind UNSUPPORTED unless the statement is a query. */
    static void check(final SqlNode statement) {
        if (!statement.getKind().belongsTo(SqlKind.QUERY)) {
            final SqlParserPos pos = statement.getParserPosition();
            throw new SqlException(SqlException.Kind.UNSUPPORTED, pos.getLineNum(), pos.getColumnNum(),
                    statement.getKind().lowerName.replace('_', ' ') + " statements are not supported: Sluice runs"
                            + " queries (SELECT, WITH ... SELECT) over the store's tables; write tables with"
                            + " 'sluice gen' or 'sluice import'");
        }
    }
}
