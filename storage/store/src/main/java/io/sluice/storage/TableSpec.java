package io.sluice.storage;

import io.sluice.format.Block;
import io.sluice.format.Schema;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a {@link TableWriter} writes: a table's name and schema, how its rows are ordered, whether
 * it may replace a table of that name, how many rows a block holds and the attributes its manifest
 * records. Built with {@link #of} and the {@code with}-methods; {@link Store#write} starts the writer.
 *
 * @param sortKey    column the rows are stored sorted by, or null for arrival order
 * @param presorted  whether rows arrive already in {@code sortKey} order (checked, not sorted)
 * @param replace    whether an existing table of this name is replaced (its previous version is
 *                   read by its readers until the new one is complete); otherwise it is an error
 * @param blockRows  rows per block, 1 to {@link Block#MAX_ROWS}
 * @param attributes recorded in the manifest, e.g. how the rows were made
 */
public record TableSpec(String name, Schema schema, String sortKey, boolean presorted, boolean replace,
                        int blockRows, SortedMap<String, String> attributes) {
    /** Checks the name, the sort key and the block size; copies the attributes. */
    public TableSpec {
        if (!StoreContents.isTableName(name)) {
            throw new IllegalArgumentException("table name '" + name
                    + "' is not valid: use letters, digits and '_', starting with a letter or '_'");
        }
        if (sortKey != null) {
            schema.require(sortKey);
        }
        if (blockRows < 1 || blockRows > Block.MAX_ROWS) {
            throw new IllegalArgumentException("rows per block must be 1.." + Block.MAX_ROWS + ", got " + blockRows);
        }
        attributes = Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
    }

    /** A new table in arrival order, full blocks, no attributes. */
    public static TableSpec of(final String name, final Schema schema) {
        return new TableSpec(name, schema, null, false, false, Block.MAX_ROWS, new TreeMap<>());
    }

    /** Rows buffered and written sorted by {@code column} at the end. */
    public TableSpec withSortKey(final String column) {
        return new TableSpec(name, schema, column, false, replace, blockRows, attributes);
    }

    /** Rows that arrive in {@code column} order: checked, not buffered, and the table recorded as sorted. */
    public TableSpec withPresortedKey(final String column) {
        return new TableSpec(name, schema, column, column != null, replace, blockRows, attributes);
    }

    /** Replaces a table of the same name, if there is one. */
    public TableSpec replacing(final boolean replacing) {
        return new TableSpec(name, schema, sortKey, presorted, replacing, blockRows, attributes);
    }

    /** Blocks of at most {@code rows} rows (small blocks are for tests and special layouts). */
    public TableSpec withBlockRows(final int rows) {
        return new TableSpec(name, schema, sortKey, presorted, replace, rows, attributes);
    }

    /** An attribute for the manifest. */
    public TableSpec withAttribute(final String key, final String value) {
        final SortedMap<String, String> more = new TreeMap<>(attributes);
        more.put(key, value);
        return new TableSpec(name, schema, sortKey, presorted, replace, blockRows, more);
    }
}
