package io.sluice.storage;

import io.sluice.format.Block;
import io.sluice.format.BlockEncoder;
import io.sluice.format.ColumnBuilder;
import io.sluice.format.ColumnVector;
import io.sluice.format.IndexSort;
import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.format.StringVector;
import io.sluice.format.ZoneMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a table: rows are appended column by column ({@link #column}, then {@link #endRow}) and
 * cut into blocks of {@link Block#MAX_ROWS} rows that stream to disk, so memory stays bounded at
 * any size. With a sort key, rows are buffered and written in key order at {@link #finish}
 * (clustering: blocks then have narrow, non-overlapping zonemaps on the key).
 *
 * <p>The table is written into a hidden directory and renamed into place by {@link #finish}; a
 * writer closed without finishing deletes what it wrote, so no half-written table is ever
 * visible.
 */
public final class TableWriter implements AutoCloseable {
    private final Path finalDir;
    private final Path partialDir;
    private final String name;
    private final Schema schema;
    private final String sortKey;
    private final int sortColumn;
    private final boolean presorted;
    private ColumnVector lastKey;
    private final ColumnBuilder[] builders;
    private final BlockEncoder encoder = new BlockEncoder();
    private final List<ZoneMap[]> zoneMaps = new ArrayList<>();
    private long rows;
    private long bytes;
    private boolean finished;

    private TableWriter(final Path storeDir, final String name, final Schema schema, final String sortKey,
                        final boolean presorted) {
        this.name = name;
        this.schema = schema;
        this.sortKey = sortKey;
        this.presorted = presorted;
        this.sortColumn = sortKey == null ? -1 : schema.require(sortKey);
        this.finalDir = storeDir.resolve(name);
        this.partialDir = storeDir.resolve("." + name + ".partial");
        this.builders = new ColumnBuilder[schema.size()];
        for (int i = 0; i < builders.length; i++) {
            builders[i] = new ColumnBuilder(schema.type(i));
        }
    }

    /**
     * Starts a table in a store directory.
     *
     * @param sortKey column to sort by, or null to keep arrival order
     */
    public static TableWriter create(final Path storeDir, final String name, final Schema schema, final String sortKey) {
        return create(storeDir, name, schema, sortKey, false);
    }

    /**
     * Starts a table whose rows may already arrive in {@code sortKey} order.
     *
     * @param presorted when true, rows are not buffered and sorted but checked to arrive in
     *                  non-decreasing key order (the table is still recorded as sorted by it)
     */
    public static TableWriter create(final Path storeDir, final String name, final Schema schema, final String sortKey,
                                     final boolean presorted) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("table name '" + name
                    + "' is not valid: use letters, digits and '_', starting with a letter or '_'");
        }
        final TableWriter writer = new TableWriter(storeDir, name, schema, sortKey, presorted && sortKey != null);
        if (Files.exists(writer.finalDir)) {
            throw new StorageException("table '" + name + "' already exists in " + storeDir
                    + ": choose another name or delete " + writer.finalDir);
        }
        try {
            Files.createDirectories(storeDir);
            deleteTree(writer.partialDir);
            Files.createDirectory(writer.partialDir);
        } catch (final IOException e) {
            throw new StorageException("cannot create table '" + name + "' in " + storeDir + ": " + e, e);
        }
        return writer;
    }

    /** The schema rows are written in. */
    public Schema schema() {
        return schema;
    }

    /** The builder to append the current row's value of a column to. */
    public ColumnBuilder column(final int index) {
        return builders[index];
    }

    /** Ends the current row: every column must have received exactly one value. */
    public void endRow() {
        final int expected = builders[0].size();
        for (int i = 1; i < builders.length; i++) {
            if (builders[i].size() != expected) {
                throw new IllegalStateException("column '" + schema.field(i).name() + "' has " + builders[i].size()
                        + " values but column '" + schema.field(0).name() + "' has " + expected);
            }
        }
        rows++;
        if ((sortColumn < 0 || presorted) && expected == Block.MAX_ROWS) {
            flush(null, 0, expected);
            for (final ColumnBuilder b : builders) {
                b.clear();
            }
        }
    }

    /** Rows appended so far. */
    public long rowCount() {
        return rows;
    }

    /** Block bytes written so far. */
    public long bytesWritten() {
        return bytes;
    }

    private void flush(final int[] order, final int from, final int count) {
        if (presorted) {
            checkOrder(count);
        }
        final ColumnVector[] columns = new ColumnVector[builders.length];
        for (int i = 0; i < builders.length; i++) {
            columns[i] = builders[i].gather(order, from, count);
        }
        final Block block = Block.of(columns);
        final Path path = partialDir.resolve(blockFileName(zoneMaps.size()));
        BlockFile.write(path, block, encoder);
        zoneMaps.add(block.zoneMaps());
        try {
            bytes += Files.size(path);
        } catch (final IOException e) {
            throw new StorageException("cannot stat " + path + ": " + e, e);
        }
    }

    /** Writes the remaining rows, the zonemap index and the manifest, then makes the table visible. */
    public Table finish() {
        final int buffered = builders[0].size();
        if (sortColumn >= 0 && !presorted) {
            final ColumnBuilder key = builders[sortColumn];
            final int[] order = IndexSort.stableOrder(buffered, key::compareRows);
            for (int from = 0; from < buffered; from += Block.MAX_ROWS) {
                flush(order, from, Math.min(Block.MAX_ROWS, buffered - from));
            }
        } else if (buffered > 0) {
            flush(null, 0, buffered);
        }
        ZoneMapIndex.write(partialDir, zoneMaps.toArray(new ZoneMap[0][]), schema.size());
        new TableManifest(name, schema, rows, zoneMaps.size(), bytes, sortKey).write(partialDir);
        try {
            Files.move(partialDir, finalDir, StandardCopyOption.ATOMIC_MOVE);
        } catch (final IOException e) {
            throw new StorageException("cannot move finished table into " + finalDir + ": " + e, e);
        }
        finished = true;
        return Table.open(finalDir);
    }

    private void checkOrder(final int count) {
        final ColumnBuilder key = builders[sortColumn];
        for (int i = 1; i < count; i++) {
            if (key.compareRows(i - 1, i) > 0) {
                throw new IllegalStateException("table '" + name + "' was declared sorted by " + sortKey
                        + " but row " + (rows - count + i) + " is smaller than the row before it");
            }
        }
        final ColumnVector first = key.build(0, 1);
        if (lastKey != null && compareFirst(lastKey, first) > 0) {
            throw new IllegalStateException("table '" + name + "' was declared sorted by " + sortKey
                    + " but block " + zoneMaps.size() + " starts below the end of the block before it");
        }
        lastKey = key.build(count - 1, 1);
    }

    private static int compareFirst(final ColumnVector a, final ColumnVector b) {
        if (a.isNull(0) || b.isNull(0)) {
            return Boolean.compare(!a.isNull(0), !b.isNull(0));
        }
        if (a instanceof StringVector sa && b instanceof StringVector sb) {
            return java.util.Arrays.compareUnsigned(sa.bytes(), sa.offset(0), sa.offset(0) + sa.length(0),
                    sb.bytes(), sb.offset(0), sb.offset(0) + sb.length(0));
        }
        return Long.compare(a.key(0), b.key(0));
    }

    /** File name of a table's block {@code index}. */
    public static String blockFileName(final int index) {
        return String.format("block-%06d.sbk", index);
    }

    /** Deletes what was written unless {@link #finish} completed. */
    @Override
    public void close() {
        if (!finished) {
            try {
                deleteTree(partialDir);
            } catch (final IOException e) {
                throw new StorageException("cannot remove unfinished table " + partialDir + ": " + e, e);
            }
        }
    }

    static void deleteTree(final Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            final List<Path> all = new ArrayList<>(paths.toList());
            for (int i = all.size() - 1; i >= 0; i--) {
                Files.deleteIfExists(all.get(i));
            }
        }
    }
}
