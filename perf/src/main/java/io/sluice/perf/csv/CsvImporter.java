package io.sluice.perf.csv;

import io.sluice.format.ColumnBuilder;
import io.sluice.format.ColumnType;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.perf.text.Plural;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import io.sluice.zonemap.TableSketch;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Imports a UTF-8 CSV file into a table of a store. The first line is a header naming the columns,
 * matched to the schema's by name, ignoring case, in any order (a file without a header has its
 * fields in schema order); every other record is one row, each field parsed by its column's type
 * (see {@link FieldParser}). An empty unquoted field is NULL; a quoted empty field ({@code ""}) is
 * the empty string, and is an error in a non-string column.
 *
 * <p>The first bad record stops the import with a {@link CsvFormatException} naming the file,
 * line, column, value and what was expected; the table is then not created. Rows stream to disk
 * in blocks, unless a sort column is given: then they are held in memory and sorted at the end.
 */
public final class CsvImporter {
    private static final int PROGRESS_EVERY = 8192;

    private CsvImporter() {
    }

    /** Imports {@code csv}, whose first line is a header, as the new table {@code tableName}. */
    public static Table importFile(final Store store, final Path csv, final String tableName, final Schema schema,
                                   final String sortKey) {
        return importFile(store, csv, TableSpec.of(tableName, schema).withSortKey(sortKey), true, rows -> { });
    }

    /** What an import has read so far; told every few thousand rows. */
    @FunctionalInterface
    public interface Progress {
        /**
         * @param rows      rows read so far
         * @param bytesRead bytes of the file read so far
         */
        void update(long rows, long bytesRead);
    }

    /**
     * Imports {@code csv} as the table {@code spec} describes.
     *
     * @param header   whether the first line is a header naming the columns (else fields are in schema order)
     * @param progress called with the rows read so far every few thousand rows; it may throw to stop the
     *                 import, which then leaves nothing behind
     * @return the new table, open (the caller closes it)
     */
    public static Table importFile(final Store store, final Path csv, final TableSpec spec, final boolean header,
                                   final LongConsumer progress) {
        return importFile(store, csv, spec, header, (rows, bytes) -> progress.accept(rows));
    }

    /**
     * As {@link #importFile(Store, Path, TableSpec, boolean, LongConsumer)}, telling {@code progress} the
     * bytes read as well (against the file's size: how far the import is).
     */
    public static Table importFile(final Store store, final Path csv, final TableSpec spec, final boolean header,
                                   final Progress progress) {
        if (!Files.isRegularFile(csv)) {
            throw new StorageException("CSV file " + csv + " does not exist or is not a regular file");
        }
        final Schema schema = spec.schema();
        final String source = csv.toString();
        try (Utf8Reader text = new Utf8Reader(Files.newInputStream(csv));
             TableWriter writer = store.write(spec);
             CsvReader reader = new CsvReader(text, source)) {
            writer.gather(TableSketch.builder(schema));
            try {
                final int[] columnOfField = header ? readHeader(reader, schema) : inSchemaOrder(schema.size());
                final ColumnBuilder[] columns = new ColumnBuilder[columnOfField.length];
                for (int f = 0; f < columns.length; f++) {
                    columns[f] = writer.column(columnOfField[f]);
                }
                long rows = 0;
                while (reader.next()) {
                    appendRow(reader, schema, columnOfField, columns);
                    writer.endRow();
                    if (++rows % PROGRESS_EVERY == 0) {
                        progress.update(rows, text.bytesRead());
                    }
                }
                progress.update(rows, text.bytesRead());
            } catch (final CharacterCodingException e) {
                throw new CsvFormatException(source, reader.line(), "the file is not valid UTF-8 on this line ("
                        + e + "); convert it to UTF-8");
            }
            return writer.finish();
        } catch (final IOException e) {
            throw new StorageException("cannot read CSV file " + csv + ": " + e, e);
        }
    }

    private static int[] inSchemaOrder(final int columns) {
        final int[] order = new int[columns];
        for (int c = 0; c < columns; c++) {
            order[c] = c;
        }
        return order;
    }

    /** Reads the header and returns, for each of its fields, the schema column it names. */
    private static int[] readHeader(final CsvReader reader, final Schema schema) throws IOException {
        if (!reader.next()) {
            throw new CsvFormatException(reader.source(), 1, "the file is empty: its first line must be a header"
                    + " naming the " + Plural.of(schema.size(), "column") + " " + schema.names());
        }
        final List<String> names = new ArrayList<>();
        final Map<String, Integer> byName = new HashMap<>();
        for (int c = 0; c < schema.size(); c++) {
            byName.put(key(schema.field(c).name()), c);
        }
        final int[] columnOfField = new int[reader.fieldCount()];
        final Set<Integer> named = new HashSet<>();
        final List<String> unknown = new ArrayList<>();
        final List<String> twice = new ArrayList<>();
        for (int f = 0; f < reader.fieldCount(); f++) {
            final String name = reader.field(f);
            names.add(name);
            final Integer column = byName.get(key(name));
            if (column == null) {
                unknown.add(name);
            } else if (!named.add(column)) {
                twice.add(name);
            } else {
                columnOfField[f] = column;
            }
        }
        final List<String> missing = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            if (!named.contains(c)) {
                missing.add(schema.field(c).name());
            }
        }
        if (!unknown.isEmpty() || !missing.isEmpty() || !twice.isEmpty()) {
            throw new CsvFormatException(reader.source(), reader.recordLine(), "the header's columns " + names
                    + " do not match the schema's " + schema.names() + ":"
                    + (missing.isEmpty() ? "" : " missing " + String.join(", ", missing) + ";")
                    + (unknown.isEmpty() ? "" : " unknown " + String.join(", ", unknown) + ";")
                    + (twice.isEmpty() ? "" : " named twice " + String.join(", ", twice) + ";")
                    + " header names match schema names ignoring case, in any order (a file without a header"
                    + " takes --no-header, and its fields are then in schema order)");
        }
        return columnOfField;
    }

    private static String key(final String name) {
        return name.strip().toLowerCase(Locale.ROOT);
    }

    private static void appendRow(final CsvReader reader, final Schema schema, final int[] columnOfField,
                                  final ColumnBuilder[] columns) {
        if (reader.fieldCount() != columns.length) {
            throw new CsvFormatException(reader.source(), reader.recordLine(), "the record has "
                    + Plural.of(reader.fieldCount(), "field") + " but the schema has " + Plural.of(columns.length, "column")
                    + " "
                    + schema.names());
        }
        for (int f = 0; f < columns.length; f++) {
            final String text = reader.field(f);
            if (text.isEmpty() && !reader.quoted(f)) {
                columns[f].appendNull();
                continue;
            }
            final int c = columnOfField[f];
            final ColumnType type = schema.type(c);
            try {
                switch (type.kind()) {
                    case INT64 -> columns[f].appendLong(FieldParser.parseInt64(text));
                    case INT32 -> columns[f].appendInt(FieldParser.parseInt32(text));
                    case DECIMAL -> columns[f].appendLong(FieldParser.parseDecimal(text, type.precision(), type.scale()));
                    case DATE -> columns[f].appendInt(FieldParser.parseDate(text));
                    case STRING -> columns[f].appendString(text);
                    case DECIMAL128 -> {
                        final java.math.BigInteger v = FieldParser.parseDecimal128(text, type.precision(), type.scale());
                        columns[f].appendDecimal128(v.shiftRight(64).longValue(), v.longValue());
                    }
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
