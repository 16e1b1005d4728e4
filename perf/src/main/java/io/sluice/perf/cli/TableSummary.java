package io.sluice.perf.cli;

import io.sluice.format.ColumnType;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.storage.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code sluice inspect} shows of one table: counts from its manifest and, per column, the
 * table-wide min (of the blocks' mins), max (of their maxes) and null count (their sum), all from
 * the zonemap index without reading a block.
 */
record TableSummary(String name, long rows, int blocks, long bytes, String sortKey, List<Column> columns) {
    /**
     * One column's table-wide zonemap; {@code min}/{@code max} are keys and mean nothing when
     * {@code hasValues} is false (no rows, or all null).
     */
    record Column(String name, ColumnType type, boolean hasValues, long min, long max, long nulls) {
    }

    TableSummary {
        columns = List.copyOf(columns);
    }

    /** Summarises a table from its zonemap index. */
    static TableSummary of(final Table table) {
        final List<Column> columns = new ArrayList<>();
        for (int c = 0; c < table.schema().size(); c++) {
            final ColumnType type = table.schema().type(c);
            final TypeKind kind = type.kind();
            boolean hasValues = false;
            long min = 0;
            long max = 0;
            long nulls = 0;
            for (int b = 0; b < table.blockCount(); b++) {
                final ZoneMap zone = table.zoneMap(b, c);
                nulls += zone.nullCount();
                if (!zone.hasValues()) {
                    continue;
                }
                if (!hasValues || kind.compareKeys(zone.min(), min) < 0) {
                    min = zone.min();
                }
                if (!hasValues || kind.compareKeys(zone.max(), max) > 0) {
                    max = zone.max();
                }
                hasValues = true;
            }
            columns.add(new Column(table.schema().field(c).name(), type, hasValues, min, max, nulls));
        }
        return new TableSummary(table.name(), table.rowCount(), table.blockCount(), table.bytes(), table.sortKey(),
                columns);
    }
}
