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
import io.sluice.format.spi.TableStatistics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a table: rows are appended column by column ({@link #column}, then {@link #endRow}) and
 * cut into blocks of {@link TableSpec#blockRows()} rows that stream to disk, so memory stays bounded
 * at any size. With a sort key, rows are buffered and written in key order at {@link #finish}
 * (clustering: blocks then have narrow, non-overlapping zonemaps on the key).
 *
 * <p>The table is written into a hidden {@code .NAME.partial} directory: its manifest and a version
 * directory ({@code v1}, or the replaced table's version + 1) holding the blocks and the zonemap
 * index. {@link #finish} makes it visible in one atomic step: a new table's directory is renamed
 * into place; a replaced table gets the new version directory beside its old one, then the manifest
 * naming the new version is renamed over the old manifest, and only then is the old version
 * deleted. A writer closed without finishing deletes what it wrote, so no half-written table is
 * ever visible, and a replaced table keeps its old version. A writer holds the store's
 * {@link StoreLock} (its own, unless the store's is held).
 */
public final class TableWriter implements AutoCloseable {
    private final Store store;
    private final TableSpec spec;
    private final StoreLock ownLock;
    private final Path finalDir;
    private final Path partialDir;
    private final int version;
    private final Path partialData;
    private final String name;
    private final Schema schema;
    private final String sortKey;
    private final int sortColumn;
    private final boolean presorted;
    private final int blockRows;
    private ColumnVector lastKey;
    private final ColumnBuilder[] builders;
    private final BlockEncoder encoder = new BlockEncoder();
    private final List<ZoneMap[]> zoneMaps = new ArrayList<>();
    private TableStatistics statistics;
    private long rows;
    private long bytes;
    private boolean finished;
    private boolean closed;

    private TableWriter(final Store store, final TableSpec spec, final StoreLock ownLock) {
        this.store = store;
        this.spec = spec;
        this.ownLock = ownLock;
        this.name = spec.name();
        this.schema = spec.schema();
        this.sortKey = spec.sortKey();
        this.presorted = spec.presorted();
        this.blockRows = spec.blockRows();
        this.sortColumn = sortKey == null ? -1 : schema.require(sortKey);
        this.finalDir = store.dir().resolve(name);
        this.partialDir = store.dir().resolve(StoreContents.partialDirName(name));
        this.version = nextVersion();
        this.partialData = partialDir.resolve(TableManifest.versionDirName(version));
        this.builders = new ColumnBuilder[schema.size()];
        for (int i = 0; i < builders.length; i++) {
            builders[i] = new ColumnBuilder(schema.type(i));
        }
    }

    /** Starts writing a table into a store, under the store's lock or, when it is not held, one of its own. */
    static TableWriter start(final Store store, final TableSpec spec) {
        final StoreLock own = store.heldLock() == null
                ? store.lock("pid " + ProcessHandle.current().pid() + " writing table '" + spec.name() + "'") : null;
        try {
            final TableWriter writer = new TableWriter(store, spec, own);
            deleteTree(writer.partialDir);
            Files.createDirectories(writer.partialData);
            return writer;
        } catch (final IOException e) {
            release(own);
            throw new StorageException("cannot create table '" + spec.name() + "' in " + store.dir() + ": " + e, e);
        } catch (final RuntimeException e) {
            release(own);
            throw e;
        }
    }

    /** 1 for a new table; for a replaced one, one more than any version its directory holds. */
    private int nextVersion() {
        if (!Files.exists(finalDir, LinkOption.NOFOLLOW_LINKS)) {
            return 1;
        }
        if (!Files.isRegularFile(finalDir.resolve(TableManifest.FILE))) {
            if (!spec.replace()) {
                throw new StorageException("table directory " + finalDir + " exists without a " + TableManifest.FILE
                        + " (it is damaged): replace the table, or delete " + finalDir);
            }
            if (!Files.isDirectory(finalDir, LinkOption.NOFOLLOW_LINKS) || !StoreContents.holdsOnlySluiceFiles(finalDir)) {
                throw new StorageException("cannot replace table '" + name + "': " + finalDir
                        + " holds files Sluice did not write; move them away first");
            }
            return 1;
        }
        if (!spec.replace()) {
            throw new StorageException("table '" + name + "' already exists in " + store.dir()
                    + ": replace it, choose another name, or delete " + finalDir);
        }
        int newest = TableManifest.read(finalDir).version();
        for (final Path leftover : StoreContents.leftoversOfTable(finalDir)) {
            final String file = leftover.getFileName().toString();
            if (file.startsWith("v") && Files.isDirectory(leftover)) {
                newest = Math.max(newest, Integer.parseInt(file.substring(1)));
            }
        }
        return newest + 1;
    }

    /**
     * Shows every block written to {@code gatherer} and stores what it gathered in the table's
     * {@link StatisticsFile} before the table becomes visible; call before the first row.
     */
    public TableWriter gather(final TableStatistics gatherer) {
        if (rows > 0) {
            throw new IllegalStateException("statistics must be gathered from the first row of table '" + name
                    + "', but " + rows + " rows were written already");
        }
        this.statistics = gatherer;
        return this;
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
        if ((sortColumn < 0 || presorted) && expected == blockRows) {
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
        final Path path = partialData.resolve(blockFileName(zoneMaps.size()));
        BlockFile.write(path, block, encoder);
        zoneMaps.add(block.zoneMaps());
        if (statistics != null) {
            statistics.accept(block);
        }
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
            for (int from = 0; from < buffered; from += blockRows) {
                flush(order, from, Math.min(blockRows, buffered - from));
            }
        } else if (buffered > 0) {
            flush(null, 0, buffered);
        }
        ZoneMapIndex.write(partialData, zoneMaps.toArray(new ZoneMap[0][]), schema.size());
        if (statistics != null) {
            StatisticsFile.write(partialData, statistics.finish());
        }
        new TableManifest(name, schema, rows, zoneMaps.size(), bytes, sortKey, version, spec.attributes())
                .write(partialDir);
        try {
            commit();
        } catch (final IOException e) {
            throw new StorageException("cannot move the finished table '" + name + "' into " + finalDir + ": " + e, e);
        }
        finished = true;
        close();
        return Table.open(finalDir, store.cache());
    }

    /** Makes the written version the table's: one rename makes it visible, then the old version goes. */
    private void commit() throws IOException {
        if (!Files.exists(finalDir, LinkOption.NOFOLLOW_LINKS)) {
            Files.move(partialDir, finalDir, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        if (!Files.isRegularFile(finalDir.resolve(TableManifest.FILE))) {
            deleteTree(finalDir);
            Files.move(partialDir, finalDir, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        Files.move(partialData, finalDir.resolve(partialData.getFileName()), StandardCopyOption.ATOMIC_MOVE);
        Files.move(partialDir.resolve(TableManifest.FILE), finalDir.resolve(TableManifest.FILE),
                StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        deleteTree(partialDir);
        for (final Path old : StoreContents.leftoversOfTable(finalDir)) {
            deleteTree(old);
        }
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

    /** Deletes what was written unless {@link #finish} completed, and releases the writer's own lock. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!finished) {
                deleteTree(partialDir);
            }
        } catch (final IOException e) {
            throw new StorageException("cannot remove unfinished table " + partialDir + ": " + e, e);
        } finally {
            release(ownLock);
        }
    }

    private static void release(final StoreLock lock) {
        if (lock != null) {
            lock.close();
        }
    }

    static void deleteTree(final Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
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
