package io.sluice.perf.cli;

import io.sluice.format.TypeKind;
import io.sluice.storage.StoreLock;
import java.nio.file.Path;

/**
 * Renders {@code sluice inspect --json}: {@code {"store", "tables": [{"name", "rows", "blocks",
 * "bytes", "sort_key", "columns": [{"name", "type", "min", "max", "nulls"}]}]}}. Numbers and
 * decimals are JSON numbers (decimals with their exact scale), dates and strings JSON strings;
 * string columns add {@code min_is_prefix}/{@code max_is_prefix}. Min and max are null when a
 * column has no non-null value. With {@code --verify} a table adds {@code verified_blocks} and
 * {@code damaged_blocks}. Then {@code "damaged": [{"name", "problem"}]}, {@code "leftovers"} (paths
 * relative to the store) and {@code "writer"}: the lock's holder ({@code pid, host, command, since,
 * alive}) or null.
 */
final class InspectJson {
    private InspectJson() {
    }

    /** The JSON document for a store's inspected tables, damaged tables and leftovers. */
    static String render(final InspectedStore store) {
        final JsonWriter json = new JsonWriter().beginObject();
        json.name("store").value(store.store().toString());
        json.name("tables").beginArray();
        for (final InspectedTable inspected : store.tables()) {
            final TableSummary t = inspected.summary();
            json.beginObject();
            json.name("name").value(t.name());
            json.name("rows").value(t.rows());
            json.name("blocks").value(t.blocks());
            json.name("bytes").value(t.bytes());
            json.name("sort_key").value(t.sortKey());
            json.name("columns").beginArray();
            for (final TableSummary.Column c : t.columns()) {
                writeColumn(json, c);
            }
            json.endArray();
            if (inspected.verification() != null) {
                json.name("verified_blocks").value(inspected.verification().blocks());
                json.name("damaged_blocks").value(inspected.verification().problems().size());
            }
            json.endObject();
        }
        json.endArray();
        json.name("damaged").beginArray();
        for (final InspectedStore.Damaged d : store.damaged()) {
            json.beginObject().name("name").value(d.name()).name("problem").value(d.problem()).endObject();
        }
        json.endArray();
        json.name("leftovers").beginArray();
        for (final Path p : store.leftovers()) {
            json.value(p.toString());
        }
        json.endArray();
        json.name("writer");
        final StoreLock.Holder writer = store.writer();
        if (writer == null) {
            json.nullValue();
        } else {
            json.beginObject().name("pid").value(writer.pid()).name("host").value(writer.host())
                    .name("command").value(writer.command()).name("since").value(writer.since().toString())
                    .name("alive").value(writer.alive()).endObject();
        }
        return json.endObject().toString();
    }

    private static void writeColumn(final JsonWriter json, final TableSummary.Column c) {
        json.beginObject();
        json.name("name").value(c.name());
        json.name("type").value(c.type().toString());
        json.name("min");
        key(json, c, c.min());
        json.name("max");
        key(json, c, c.max());
        json.name("nulls").value(c.nulls());
        if (c.type().kind() == TypeKind.STRING) {
            json.name("min_is_prefix").value(c.hasValues() && KeyFormat.isPrefix(c.type(), c.min()));
            json.name("max_is_prefix").value(c.hasValues() && KeyFormat.isPrefix(c.type(), c.max()));
        }
        json.endObject();
    }

    private static void key(final JsonWriter json, final TableSummary.Column c, final long key) {
        if (!c.hasValues()) {
            json.nullValue();
            return;
        }
        switch (c.type().kind()) {
            case INT64, INT32, DECIMAL, DECIMAL128 -> json.number(KeyFormat.text(c.type(), key));
            case DATE, STRING -> json.value(KeyFormat.text(c.type(), key));
        }
    }
}
