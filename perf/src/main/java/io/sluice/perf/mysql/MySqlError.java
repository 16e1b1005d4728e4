package io.sluice.perf.mysql;

/** A statement's failure as the client sees it: an ERR packet with its code, SQL state and message. */
final class MySqlError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ErrorCode code;

    MySqlError(final ErrorCode code, final String message) {
        super(message);
        this.code = code;
    }

    ErrorCode code() {
        return code;
    }
}
