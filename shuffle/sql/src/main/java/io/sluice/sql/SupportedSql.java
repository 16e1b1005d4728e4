package io.sluice.sql;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Refuses, before validation, what Sluice cannot run, at the place it is written: statements
 * that are not queries (DDL, INSERT, UPDATE, DELETE, MERGE, ...), a first word that starts no
 * statement (with the query word it is closest to), SELECT without FROM, VALUES, INTERSECT ALL and
 * EXCEPT ALL, window frame offsets that are not constants, and functions outside the ones Sluice
 * evaluates (window functions among them: the frames and functions of OVER that Sluice does not
 * compute are refused after validation, by {@link WindowFunctions}). The error names
 * the construct, its line and column, and what is supported instead.
 */
final class SupportedSql {
    /** The functions Sluice evaluates (operators such as {@code +} and {@code LIKE} are not functions). */
    private static final Set<String> FUNCTIONS = Set.of("SUBSTRING", "SUBSTR", "EXTRACT", "COUNT", "SUM", "AVG", "MIN", "MAX",
            "CAST", "COALESCE", "NULLIF", "ROW_NUMBER", "RANK", "DENSE_RANK", "UPPER", "LOWER", "TRIM", "LTRIM", "RTRIM",
            "CONCAT", "REPLACE", "POSITION", "STRPOS", "LEFT", "RIGHT", "LPAD", "RPAD", "LENGTH", "CHAR_LENGTH",
            "CHARACTER_LENGTH", "YEAR", "QUARTER", "MONTH", "WEEK", "DAYOFMONTH", "DAYOFWEEK", "DAYOFYEAR", "SQRT",
            "ABS", "ROUND", "GROUPING", "GROUPING_ID", "STDDEV", "STDDEV_SAMP", "STDDEV_POP", "VARIANCE", "VAR_SAMP",
            "VAR_POP");

    private static final Set<SqlKind> REFUSED = Set.of();

    private SupportedSql() {
    }

    /** Statement keywords of DDL and other commands the query parser does not know. */
    private static final Set<String> COMMANDS = Set.of("CREATE", "DROP", "ALTER", "TRUNCATE", "GRANT", "REVOKE",
            "COPY", "ATTACH", "SET", "USE", "COMMIT", "ROLLBACK", "BEGIN", "ANALYZE", "VACUUM");

    /** Words a query may start with. */
    private static final Set<String> QUERY_WORDS = Set.of("SELECT", "WITH", "VALUES", "TABLE", "EXPLAIN");

    /**
     * For a statement that did not parse: throws UNSUPPORTED when its first word starts a command
     * Sluice does not run (DDL, transactions, settings), so the error names that, not a syntax error;
     * throws SYNTAX when its first word starts no statement at all, with the query word it is closest to.
     */
    static void checkStatementWord(final String sql) {
        final String[] lines = sql.split("\n", -1);
        for (int line = 0; line < lines.length; line++) {
            final String text = lines[line];
            int col = 0;
            while (col < text.length() && Character.isWhitespace(text.charAt(col))) {
                col++;
            }
            if (col == text.length() || text.startsWith("--", col)) {
                continue;
            }
            int end = col;
            while (end < text.length() && Character.isLetter(text.charAt(end))) {
                end++;
            }
            final String word = text.substring(col, end).toUpperCase(Locale.ROOT);
            if (COMMANDS.contains(word)) {
                throw new SqlException(SqlException.Kind.UNSUPPORTED, line + 1, col + 1, word.toLowerCase(Locale.ROOT)
                        + " statements are not supported: Sluice runs queries (SELECT, WITH ... SELECT) over the"
                        + " store's tables; write tables with 'sluice gen' or 'sluice import'");
            }
            if (!word.isEmpty() && !QUERY_WORDS.contains(word)) {
                final String meant = Spelling.closest(word, List.of("SELECT", "WITH"));
                throw new SqlException(SqlException.Kind.SYNTAX, line + 1, col + 1, "'" + text.substring(col, end)
                        + "' does not start a statement" + (meant == null ? "" : " (did you mean " + meant + "?)")
                        + ": Sluice runs queries, SELECT ... FROM ... or WITH ... SELECT");
            }
            return;
        }
    }

    /** Throws a {@link SqlException} of kind UNSUPPORTED unless Sluice can plan the parsed statement. */
    static void check(final SqlNode statement) {
        if (!statement.getKind().belongsTo(SqlKind.QUERY)) {
            throw refused(statement.getParserPosition(), statement.getKind().lowerName.replace('_', ' ')
                    + " statements are not supported: Sluice runs queries (SELECT, WITH ... SELECT) over the store's"
                    + " tables; write tables with 'sluice gen' or 'sluice import'");
        }
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(final SqlCall call) {
                if (call instanceof SqlWindow window) {
                    checkFrame(window);
                }
                final SqlKind kind = call.getKind();
                if (REFUSED.contains(kind)) {
                    throw refused(call.getParserPosition(), kind.sql.replace('_', ' ') + " is not supported yet");
                }
                if ((kind == SqlKind.INTERSECT || kind == SqlKind.EXCEPT)
                        && call.getOperator() instanceof SqlSetOperator set && set.isAll()) {
                    throw refused(call.getParserPosition(), kind.sql + " ALL is not supported: Sluice runs UNION ALL,"
                            + " UNION, INTERSECT and EXCEPT; write " + kind.sql + " (without ALL) when duplicates need"
                            + " not be kept");
                }
                if (call.getOperator() instanceof SqlFunction f && kind != SqlKind.CAST
                        && !FUNCTIONS.contains(f.getName().toUpperCase(Locale.ROOT))) {
                    throw refused(call.getParserPosition(), "the function " + f.getName() + " is not supported;"
                            + " Sluice evaluates " + String.join(", ", new java.util.TreeSet<>(FUNCTIONS)));
                }
                return super.visit(call);
            }
        });
    }

    /**
     * A window frame Sluice computes: bounds UNBOUNDED, CURRENT ROW, or a constant offset (a number,
     * or an INTERVAL for a RANGE over a date) PRECEDING or FOLLOWING; an offset that is an expression
     * is refused at that bound. Offsets that do not fit the frame's ORDER BY key are refused after
     * validation, by {@link WindowFunctions}.
     */
    private static void checkFrame(final SqlWindow window) {
        for (final SqlNode bound : new SqlNode[] {window.getLowerBound(), window.getUpperBound()}) {
            if (bound == null || SqlWindow.isUnboundedPreceding(bound) || SqlWindow.isCurrentRow(bound)
                    || SqlWindow.isUnboundedFollowing(bound)) {
                continue;
            }
            final SqlNode offset = bound instanceof SqlCall call && !call.getOperandList().isEmpty()
                    ? call.getOperandList().get(0) : null;
            if (!(offset instanceof SqlLiteral)) {
                throw refused(bound.getParserPosition(), "the window frame bound " + bound + " is not supported: a"
                        + " frame offset is a constant number of rows (ROWS) or of the ORDER BY key's units (RANGE),"
                        + " or an INTERVAL of days over a date key");
            }
        }
    }

    private static SqlException refused(final SqlParserPos pos, final String detail) {
        return new SqlException(SqlException.Kind.UNSUPPORTED, pos.getLineNum(), pos.getColumnNum(), detail);
    }
}
