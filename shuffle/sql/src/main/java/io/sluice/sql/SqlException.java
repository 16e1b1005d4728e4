package io.sluice.sql;

/**
 * A statement Sluice cannot run: a syntax error, a name or type the store's schemas do not
 * resolve, or SQL that parses but that Sluice does not support (DDL, writes, a function it
 * lacks). It names the position in the statement ({@link #line()}, {@link #column()}, both from 1;
 * 0 when the problem has no single place) and what to change.
 */
public final class SqlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why the statement was refused. */
    public enum Kind {
        /** The text is not SQL. */
        SYNTAX,
        /** SQL naming a table, column or function the store does not have, or mixing types wrongly. */
        VALIDATION,
        /** Valid SQL that Sluice does not run. */
        UNSUPPORTED
    }

    private final Kind kind;
    private final int line;
    private final int column;
    private final String detail;

    /**
     * @param kind   why the statement was refused
     * @param line   the line of the offending text, from 1, or 0 when it has no single place
     * @param column the column of the offending text, from 1, or 0
     * @param detail what is wrong and what to do
     */
    public SqlException(final Kind kind, final int line, final int column, final String detail) {
        super(format(kind, line, column, detail));
        this.kind = kind;
        this.line = line;
        this.column = column;
        this.detail = detail;
    }

    private static String format(final Kind kind, final int line, final int column, final String detail) {
        final String what = switch (kind) {
            case SYNTAX -> "SQL syntax error";
            case VALIDATION -> "SQL error";
            case UNSUPPORTED -> "SQL not supported";
        };
        return what + (line > 0 ? " at line " + line + ", column " + column : "") + ": " + detail;
    }

    /** Why the statement was refused. */
    public Kind kind() {
        return kind;
    }

    /** The line of the offending text, from 1; 0 when it has no single place. */
    public int line() {
        return line;
    }

    /** The column of the offending text, from 1; 0 when it has no single place. */
    public int column() {
        return column;
    }

    /** What is wrong and what to do, without the position. */
    public String detail() {
        return detail;
    }

    /** An unsupported construct with no position in the text (found after validation). */
    static SqlException unsupported(final String detail) {
        return new SqlException(Kind.UNSUPPORTED, 0, 0, detail);
    }
}
