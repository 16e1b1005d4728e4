package io.sluice.perf.csv;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;

/**
 * Reads RFC 4180 records one at a time: fields separated by commas, records by LF, CRLF or a lone
 * CR; a field in double quotes may hold commas, line breaks and quotes written twice ({@code ""}).
 * The fields of the current record are reused by the next {@link #next()}.
 *
 * <p>Strict where a lenient reader would guess: a quote inside an unquoted field, text after a
 * closing quote and a quote left open at the end of the input are {@link CsvFormatException}s. A
 * UTF-8 byte order mark at the start is skipped. An empty line is a record of one empty field.
 */
public final class CsvReader implements Closeable {
    private static final int EOF = -1;

    private final Reader in;
    private final String source;
    private final char[] buffer = new char[64 * 1024];
    private int position;
    private int limit;
    private long line = 1;
    private long recordLine;
    private boolean started;

    private final StringBuilder field = new StringBuilder();
    private String[] fields = new String[16];
    private boolean[] quoted = new boolean[16];
    private int fieldCount;

    /**
     * A reader over characters.
     *
     * @param source the file or stream name used in error messages
     */
    public CsvReader(final Reader in, final String source) {
        this.in = in;
        this.source = source;
    }

    /** Reads the next record; false at the end of the input. */
    public boolean next() throws IOException {
        if (!started) {
            started = true;
            if (peek() == '\uFEFF') {
                position++;
            }
        }
        if (peek() == EOF) {
            fieldCount = 0;
            return false;
        }
        recordLine = line;
        fieldCount = 0;
        while (true) {
            final boolean wasQuoted = readField();
            add(field.toString(), wasQuoted);
            final int c = read();
            if (c == ',') {
                continue;
            }
            if (c == EOF || endOfLine(c)) {
                return true;
            }
            throw new IllegalStateException("a field ended on '" + (char) c + "'");
        }
    }

    /** Reads one field up to (not including) its delimiter; returns whether it was quoted. */
    private boolean readField() throws IOException {
        field.setLength(0);
        if (peek() != '"') {
            while (true) {
                final int c = peek();
                if (c == EOF || c == ',' || c == '\n' || c == '\r') {
                    return false;
                }
                if (c == '"') {
                    throw error("a quote inside an unquoted field: quote the whole field and write"
                            + " quotes in it twice (\"\")");
                }
                field.append((char) c);
                position++;
            }
        }
        position++;
        final long openedOn = line;
        while (true) {
            final int c = read();
            if (c == EOF) {
                throw new CsvFormatException(source, openedOn, "a quoted field opened on line " + openedOn
                        + " is never closed: add the closing quote");
            }
            if (c == '"') {
                if (peek() == '"') {
                    position++;
                    field.append('"');
                    continue;
                }
                final int after = peek();
                if (after != ',' && after != '\n' && after != '\r' && after != EOF) {
                    throw error("text after a closing quote: quote the whole field and write quotes in it twice (\"\")");
                }
                return true;
            }
            if (c == '\n' || (c == '\r' && peek() != '\n')) {
                line++;
            }
            field.append((char) c);
        }
    }

    /** Consumes the rest of a line break that started with {@code c}; false if {@code c} is not one. */
    private boolean endOfLine(final int c) throws IOException {
        if (c == '\n') {
            line++;
            return true;
        }
        if (c == '\r') {
            if (peek() == '\n') {
                position++;
            }
            line++;
            return true;
        }
        return false;
    }

    private void add(final String value, final boolean wasQuoted) {
        if (fieldCount == fields.length) {
            fields = Arrays.copyOf(fields, fieldCount * 2);
            quoted = Arrays.copyOf(quoted, fieldCount * 2);
        }
        fields[fieldCount] = value;
        quoted[fieldCount] = wasQuoted;
        fieldCount++;
    }

    private int peek() throws IOException {
        if (position == limit && !fill()) {
            return EOF;
        }
        return buffer[position];
    }

    private int read() throws IOException {
        final int c = peek();
        if (c != EOF) {
            position++;
        }
        return c;
    }

    private boolean fill() throws IOException {
        final int n = in.read(buffer, 0, buffer.length);
        if (n <= 0) {
            return false;
        }
        position = 0;
        limit = n;
        return true;
    }

    private CsvFormatException error(final String problem) {
        return new CsvFormatException(source, line, problem);
    }

    /** Number of fields in the current record. */
    public int fieldCount() {
        return fieldCount;
    }

    /** A field of the current record, without its quotes and with doubled quotes undone. */
    public String field(final int index) {
        checkIndex(index);
        return fields[index];
    }

    /** Whether a field of the current record was written in quotes. */
    public boolean quoted(final int index) {
        checkIndex(index);
        return quoted[index];
    }

    private void checkIndex(final int index) {
        if (index < 0 || index >= fieldCount) {
            throw new IndexOutOfBoundsException("field " + index + " of a record with " + fieldCount + " fields");
        }
    }

    /** The 1-based line the current record starts on (a quoted line break makes a record span lines). */
    public long recordLine() {
        return recordLine;
    }

    /** The 1-based line the reader has reached: where a problem met while reading (not parsing) is. */
    public long line() {
        return line;
    }

    /** The file or stream name given at construction. */
    public String source() {
        return source;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
