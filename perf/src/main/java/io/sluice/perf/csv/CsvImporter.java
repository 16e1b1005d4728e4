package io.sluice.perf.csv;

import io.sluice.format.ColumnBuilder;
import io.sluice.format.ColumnType;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableWriter;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Imports a UTF-8 CSV file into a new table of a store. The first line is a header whose column
 * count must match the schema; every other record is one row, each field parsed by its column's
 * type (see {@link FieldParser}). An empty unquoted field is NULL; a quoted empty field
 * ({@code ""}) is the empty string, and is an error in a non-string column.
 *
 * <p>The first bad record stops the import with a {@link CsvFormatException} naming the file,
 * line, column, value and what was expected; the table is then not created. Rows stream to disk
 * in blocks, unless a sort column is given: then they are held in memory and sorted at the end.
 */
public final class CsvImporter {
    private CsvImporter() {
    }

    /**
     * Imports {@code csv} as table {@code tableName}.
     *
     * @param sortKey column to sort the rows by, or null to keep the file's order
     * @return the new table, open (the caller closes it)
     */
    public static Table importFile(final Store store, final Path csv, final String tableName, final Schema schema,
                                   final String sortKey) {
        if (!Files.isRegularFile(csv)) {
            throw new StorageException("CSV file " + csv + " does not exist or is not a regular file");
        }
        if (sortKey != null) {
            schema.require(sortKey);
        }
        final String source = csv.toString();
        try (TableWriter writer = store.createTable(tableName, schema, sortKey);
             CsvReader reader = new CsvReader(Files.newBufferedReader(csv, StandardCharsets.UTF_8), source)) {
            try {
                readHeader(reader, schema);
                final ColumnBuilder[] columns = new ColumnBuilder[schema.size()];
                for (int c = 0; c < columns.length; c++) {
                    columns[c] = writer.column(c);
                }
                while (reader.next()) {
                    appendRow(reader, schema, columns);
                    writer.endRow();
                }
            } catch (final CharacterCodingException e) {
                throw new CsvFormatException(source, reader.recordLine(), "the file is not valid UTF-8 near this line ("
                        + e + "); convert it to UTF-8");
            }
            return writer.finish();
        } catch (final IOException e) {
            throw new StorageException("cannot read CSV file " + csv + ": " + e, e);
        }
    }

    private static void readHeader(final CsvReader reader, final Schema schema) throws IOException {
        if (!reader.next()) {
            throw new CsvFormatException(reader.source(), 1, "the file is empty: its first line must be a header"
                    + " naming the " + schema.size() + " columns " + schema.names());
        }
        if (reader.fieldCount() != schema.size()) {
            throw new CsvFormatException(reader.source(), reader.recordLine(), "the header has "
                    + reader.fieldCount() + " columns but the schema has " + schema.size() + " " + schema.names()
                    + ": the first line must be a header with one name per schema column");
        }
    }

    private static void appendRow(final CsvReader reader, final Schema schema, final ColumnBuilder[] columns) {
        if (reader.fieldCount() != columns.length) {
            throw new CsvFormatException(reader.source(), reader.recordLine(), "the record has "
                    + reader.fieldCount() + " fields but the schema has " + columns.length + " columns "
                    + schema.names());
        }
        for (int c = 0; c < columns.length; c++) {
            final String text = reader.field(c);
            if (text.isEmpty() && !reader.quoted(c)) {
                columns[c].appendNull();
                continue;
            }
            final ColumnType type = schema.type(c);
            try {
                switch (type.kind()) {
                    case INT64 -> columns[c].appendLong(FieldParser.parseInt64(text));
                    case INT32 -> columns[c].appendInt(FieldParser.parseInt32(text));
                    case DECIMAL -> columns[c].appendLong(FieldParser.parseDecimal(text, type.precision(), type.scale()));
                    case DATE -> columns[c].appendInt(FieldParser.parseDate(text));
                    case STRING -> columns[c].appendString(text);
                    default -> throw new IllegalStateException("no CSV parser for " + type);
                }
            } catch (final IllegalArgumentException e) {
                final String hint = text.isEmpty() ? " (leave the field empty, without quotes, for NULL)" : "";
                throw new CsvFormatException(reader.source(), reader.recordLine(), "column '"
                        + schema.field(c).name() + "' (" + type + "): value " + quote(text) + " " + e.getMessage() + hint);
            }
        }
    }

    /** The value in double quotes, shortened if long, so that spaces and emptiness are visible. */
    private static String quote(final String text) {
        final String shown = text.length() > 60 ? text.substring(0, 60) + "..." : text;
        return "\"" + shown + "\"";
    }
}
