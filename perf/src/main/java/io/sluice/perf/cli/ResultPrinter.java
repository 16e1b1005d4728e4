package io.sluice.perf.cli;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.expr.RowType;
import io.sluice.perf.text.Plural;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints a query result as a table (ending with its row count), CSV or JSON (with a row_count):
 * decimals with their exact scale, averages as doubles, dates as yyyy-mm-dd, strings unpadded, rows
 * in the query's order.
 */
final class ResultPrinter {
    private ResultPrinter() {
    }

    /** The result in a format, ending with a newline. */
    static String format(final QueryResult result, final ResultFormat format) {
        return format(result, result.rowType().names(), format);
    }

    /**
     * The result in a format, its columns headed by {@code names} (SQL's, which two columns may share) in
     * CSV and tables; JSON keys each row's values by the result's own names, which differ.
     */
    static String format(final QueryResult result, final List<String> names, final ResultFormat format) {
        return switch (format) {
            case csv -> csv(result, names);
            case json -> json(result);
            case table -> table(result, names);
        };
    }

    /**
     * What goes between two results of one command: a blank line (CSV's line end for CSV, so that a reader
     * splitting on blank lines finds each result whole), nothing for JSON, whose objects delimit themselves.
     */
    static String separator(final ResultFormat format) {
        return switch (format) {
            case csv -> "\r\n";
            case json -> "";
            case table -> "\n";
        };
    }

    /** A cell as text: empty for null. */
    static String text(final Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return value.toString();
    }

    static String csv(final QueryResult result) {
        return csv(result, result.rowType().names());
    }

    private static String csv(final QueryResult result, final List<String> names) {
        final StringBuilder sb = new StringBuilder();
        final RowType type = result.rowType();
        for (int c = 0; c < type.size(); c++) {
            sb.append(c == 0 ? "" : ",").append(csvField(names.get(c)));
        }
        sb.append("\r\n");
        for (int r = 0; r < result.rowCount(); r++) {
            for (int c = 0; c < type.size(); c++) {
                sb.append(c == 0 ? "" : ",").append(csvField(text(result.value(r, c))));
            }
            sb.append("\r\n");
        }
        return sb.toString();
    }

    /** RFC 4180: quote a field holding a comma, quote, CR or LF, doubling its quotes. */
    static String csvField(final String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String json(final QueryResult result) {
        final RowType type = result.rowType();
        final JsonWriter w = new JsonWriter().beginObject().name("columns").beginArray();
        for (int c = 0; c < type.size(); c++) {
            w.beginObject().name("name").value(type.name(c)).name("type").value(type.type(c).toString()).endObject();
        }
        w.endArray().name("rows").beginArray();
        for (int r = 0; r < result.rowCount(); r++) {
            w.beginObject();
            for (int c = 0; c < type.size(); c++) {
                w.name(type.name(c));
                final Object v = result.value(r, c);
                if (v == null) {
                    w.nullValue();
                } else if (v instanceof Number) {
                    w.number(text(v));
                } else {
                    w.value(text(v));
                }
            }
            w.endObject();
        }
        return w.endArray().name("row_count").value(result.rowCount()).endObject() + "\n";
    }

    private static String table(final QueryResult result, final List<String> names) {
        final RowType type = result.rowType();
        final List<String[]> lines = new ArrayList<>();
        final int[] width = new int[type.size()];
        final String[] header = names.toArray(new String[0]);
        lines.add(header);
        for (int r = 0; r < result.rowCount(); r++) {
            final String[] line = new String[type.size()];
            for (int c = 0; c < line.length; c++) {
                line[c] = text(result.value(r, c));
            }
            lines.add(line);
        }
        for (final String[] line : lines) {
            for (int c = 0; c < line.length; c++) {
                width[c] = Math.max(width[c], line[c].length());
            }
        }
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            final String[] line = lines.get(i);
            for (int c = 0; c < line.length; c++) {
                final boolean right = i > 0 && type.type(c).kind() != io.sluice.engine.expr.DataType.Kind.STRING;
                final String pad = " ".repeat(width[c] - line[c].length());
                sb.append(c == 0 ? "" : " | ").append(right ? pad + line[c] : line[c] + pad);
            }
            sb.append('\n');
            if (i == 0) {
                for (int c = 0; c < width.length; c++) {
                    sb.append(c == 0 ? "" : "-+-").append("-".repeat(width[c]));
                }
                sb.append('\n');
            }
        }
        sb.append('(').append(Plural.of(result.rowCount(), "row")).append(")\n");
        return sb.toString();
    }
}
