package io.sluice.zonemap;

import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;

/**
 * Rejects zonemaps that statistics or pruning cannot trust: absent, not one per block, or
 * inconsistent. Every message names the column (and block) and the rule that was broken, since
 * zonemaps may come from a storage engine other than Sluice's.
 */
final class ZoneMapChecks {
    private ZoneMapChecks() {
    }

    /** Checks one column's zonemaps: present (non-null, non-empty), no null entry, each consistent. */
    static void requireColumn(final String column, final TypeKind kind, final ZoneMap[] zoneMaps) {
        if (zoneMaps == null || zoneMaps.length == 0) {
            throw new IllegalArgumentException("column '" + column + "' has no zonemaps ("
                    + (zoneMaps == null ? "null" : "empty array")
                    + "): pass one ZoneMap per block, in block order");
        }
        for (int b = 0; b < zoneMaps.length; b++) {
            requireBlock(column, kind, b, zoneMaps[b]);
        }
    }

    /**
     * Checks a whole table's zonemaps ({@code [column][block]}): one array per schema column, each
     * holding exactly {@code blockCount} zonemaps, and the zonemaps of one block agreeing on its
     * row count.
     */
    static void requireTable(final Schema schema, final int blockCount, final ZoneMap[][] byColumn) {
        if (blockCount < 0) {
            throw new IllegalArgumentException("block count must not be negative, got " + blockCount);
        }
        if (byColumn == null) {
            throw new IllegalArgumentException("no zonemaps (null) for schema " + schema
                    + ": pass one ZoneMap[] per column, in schema order");
        }
        if (byColumn.length != schema.size()) {
            throw new IllegalArgumentException("schema " + schema + " has " + schema.size() + " columns but "
                    + byColumn.length + " zonemap arrays were given: pass one ZoneMap[] per column, in schema order");
        }
        for (int c = 0; c < byColumn.length; c++) {
            final String column = schema.field(c).name();
            final ZoneMap[] zoneMaps = byColumn[c];
            if (blockCount > 0) {
                requireColumn(column, schema.type(c).kind(), zoneMaps);
            } else if (zoneMaps == null) {
                throw new IllegalArgumentException("column '" + column + "' has no zonemaps (null):"
                        + " pass an empty ZoneMap[] for a table without blocks");
            }
            if (zoneMaps.length != blockCount) {
                throw new IllegalArgumentException("column '" + column + "' has " + zoneMaps.length
                        + " zonemaps for " + blockCount + " blocks: pass exactly one ZoneMap per block, in block order");
            }
        }
        for (int b = 0; b < blockCount; b++) {
            final int rows = byColumn[0][b].rowCount();
            for (int c = 1; c < byColumn.length; c++) {
                if (byColumn[c][b].rowCount() != rows) {
                    throw new IllegalArgumentException("block " + b + ": the zonemap of column '"
                            + schema.field(c).name() + "' counts " + byColumn[c][b].rowCount()
                            + " rows but that of column '" + schema.field(0).name() + "' counts " + rows
                            + ": the zonemaps of one block must agree on its row count");
                }
            }
        }
    }

    private static void requireBlock(final String column, final TypeKind kind, final int block, final ZoneMap z) {
        if (z == null) {
            throw new IllegalArgumentException("column '" + column + "' block " + block
                    + " has no zonemap (null entry): pass one ZoneMap per block, in block order");
        }
        if (z.rowCount() < 0 || z.nullCount() < 0 || z.nullCount() > z.rowCount()) {
            throw new IllegalArgumentException("column '" + column + "' block " + block + " has zonemap " + z
                    + ": need 0 <= nullCount <= rowCount");
        }
        if (z.hasValues() && kind.compareKeys(z.min(), z.max()) > 0) {
            throw new IllegalArgumentException("column '" + column + "' block " + block + " has zonemap " + z
                    + " with min > max for " + kind + " keys: min must not exceed max"
                    + (kind == TypeKind.STRING ? " (string keys compare unsigned)" : ""));
        }
    }
}
