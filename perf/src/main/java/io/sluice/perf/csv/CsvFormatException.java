package io.sluice.perf.csv;

import io.sluice.format.StorageException;

/**
 * A CSV file could not be imported: a malformed record or a value that does not fit its column.
 * The message starts with {@code file:line:} and says what was found and what was expected.
 */
public final class CsvFormatException extends StorageException {
    private final String source;
    private final long line;

    public CsvFormatException(final String source, final long line, final String problem) {
        super(source + ":" + line + ": " + problem);
        this.source = source;
        this.line = line;
    }

    /** The file the problem is in. */
    public String source() {
        return source;
    }

    /** The 1-based line of the record with the problem (the header is line 1). */
    public long line() {
        return line;
    }
}
