package io.sluice.perf.mysql;

/** The MySQL error codes and SQL states this server answers with, as MySQL itself uses them. */
enum ErrorCode {
    /** ER_CON_COUNT_ERROR. */
    TOO_MANY_CONNECTIONS(1040, "08004"),
    /** ER_HANDSHAKE_ERROR. */
    BAD_HANDSHAKE(1043, "08S01"),
    /** ER_ACCESS_DENIED_ERROR. */
    ACCESS_DENIED(1045, "28000"),
    /** ER_UNKNOWN_COM_ERROR. */
    UNKNOWN_COMMAND(1047, "08S01"),
    /** ER_BAD_DB_ERROR. */
    UNKNOWN_DATABASE(1049, "42000"),
    /** ER_BAD_FIELD_ERROR. */
    BAD_FIELD(1054, "42S22"),
    /** ER_EMPTY_QUERY. */
    EMPTY_QUERY(1065, "42000"),
    /** ER_PARSE_ERROR. */
    PARSE_ERROR(1064, "42000"),
    /** ER_NO_SUCH_TABLE. */
    NO_SUCH_TABLE(1146, "42S02"),
    /** ER_HOST_NOT_PRIVILEGED. */
    HOST_NOT_ALLOWED(1130, "HY000"),
    /** ER_NOT_SUPPORTED_YET. */
    NOT_SUPPORTED(1235, "42000"),
    /** ER_QUERY_INTERRUPTED. */
    QUERY_INTERRUPTED(1317, "70100"),
    /** ER_NO_SUCH_THREAD. */
    NO_SUCH_CONNECTION(1094, "HY000"),
    /** ER_UNKNOWN_STMT_HANDLER. */
    UNKNOWN_STATEMENT(1243, "HY000"),
    /** ER_MAX_PREPARED_STMT_COUNT_REACHED. */
    TOO_MANY_STATEMENTS(1461, "42000"),
    /** ER_WRONG_VALUE_FOR_VAR. */
    WRONG_VALUE(1231, "42000"),
    /** ER_UNKNOWN_ERROR. */
    UNKNOWN(1105, "HY000");

    private final int code;
    private final String sqlState;

    ErrorCode(final int code, final String sqlState) {
        this.code = code;
        this.sqlState = sqlState;
    }

    int code() {
        return code;
    }

    String sqlState() {
        return sqlState;
    }
}
