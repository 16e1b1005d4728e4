package io.sluice.storage;

import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A directory of tables: every CN reads every table from it (shared storage). Any number of readers,
 * one writer at a time: writing takes the store's {@link StoreLock}, and the writer that takes it
 * first removes what an earlier, unfinished write left behind.
 */
public final class Store {
    private final Path dir;
    private final BlockFileCache cache;
    private final BlockFileSource source;
    private volatile StoreLock lock;

    private Store(final Path dir, final BlockFileCache cache, final BlockFileSource source) {
        this.dir = dir;
        this.cache = cache;
        this.source = source;
    }

    /** Opens an existing store directory; its tables read through the process's shared block file cache. */
    public static Store open(final Path dir) {
        return open(dir, BlockFileCache.shared());
    }

    /** Opens an existing store directory whose tables read through {@code cache}. */
    public static Store open(final Path dir, final BlockFileCache cache) {
        return open(dir, cache, BlockFileSource.LOCAL);
    }

    /**
     * Opens an existing store directory whose tables read through {@code cache} and open their block files through
     * {@code source}: a directory of manifests and zonemap indexes whose blocks live elsewhere, such as the local
     * mirror of a store on object storage.
     */
    public static Store open(final Path dir, final BlockFileCache cache, final BlockFileSource source) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw notADirectory(dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new StorageException("store " + dir + " does not exist: create it with sluice gen --sf 0.1 --out "
                    + dir + " (TPC-H tables), or import a CSV file into it (see sluice import --help)");
        }
        return new Store(dir, cache, source);
    }

    /** Opens a store, creating its directory if needed. */
    public static Store create(final Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw notADirectory(dir);
        }
        try {
            Files.createDirectories(dir);
        } catch (final IOException e) {
            throw new StorageException("cannot create store directory " + dir + ": " + e, e);
        }
        return new Store(dir, BlockFileCache.shared(), BlockFileSource.LOCAL);
    }

    private static StorageException notADirectory(final Path dir) {
        return new StorageException("store " + dir + " is not a directory: a store is a directory of tables;"
                + " give the directory, or a new path for a new store");
    }

    /** The store's directory. */
    public Path dir() {
        return dir;
    }

    /** The cache the store's tables open their block files through. */
    public BlockFileCache cache() {
        return cache;
    }

    /**
     * Takes the store's lock for a writer and removes the leftovers of unfinished writes (see
     * {@link StoreContents}); every table this store writes until the lock is closed is written under it.
     *
     * @param command what the writer does, e.g. its command line, named to anyone who finds the store locked
     * @throws StorageException naming the holder when another writer has the lock
     */
    public synchronized StoreLock lock(final String command) {
        if (lock != null) {
            throw new IllegalStateException("store " + dir + " is already locked by " + lock.holder());
        }
        final StoreLock taken = StoreLock.acquire(dir, command);
        final List<Path> removed = new ArrayList<>();
        try {
            for (final Path leftover : StoreContents.of(dir).leftovers()) {
                TableWriter.deleteTree(leftover);
                removed.add(leftover);
            }
        } catch (final IOException | RuntimeException e) {
            taken.close();
            throw new StorageException("cannot remove the leftovers of an unfinished write from store " + dir + ": " + e, e);
        }
        taken.onRelease(removed, this::released);
        lock = taken;
        return taken;
    }

    private synchronized void released() {
        lock = null;
    }

    /** The lock this store holds, or null. */
    StoreLock heldLock() {
        return lock;
    }

    /** What the store directory holds: tables, damaged tables, leftovers of unfinished writes, foreign entries. */
    public StoreContents contents() {
        return StoreContents.of(dir);
    }

    /** Names of the complete tables (directories with a manifest), sorted. */
    public List<String> tableNames() {
        return contents().tables();
    }

    /**
     * Whether a complete table of that name exists; a store whose directory mirrors one elsewhere first copies a
     * table written there since (see {@link BlockFileSource#copyTable}).
     */
    public boolean hasTable(final String name) {
        return StoreContents.isTableName(name)
                && (hasLocalTable(name) || source.copyTable(dir, name) && hasLocalTable(name));
    }

    private boolean hasLocalTable(final String name) {
        return Files.isRegularFile(dir.resolve(name).resolve(TableManifest.FILE), LinkOption.NOFOLLOW_LINKS);
    }

    /** Opens a table; the error lists the tables there are. */
    public Table table(final String name) {
        if (!hasTable(name)) {
            throw new StorageException("no table '" + name + "' in store " + dir + "; tables are " + tableNames());
        }
        return Table.open(dir.resolve(name), cache, source);
    }

    /** Starts writing a table (see {@link TableWriter}): a new one, or a replacement when {@code spec} says so. */
    public TableWriter write(final TableSpec spec) {
        return TableWriter.start(this, spec);
    }

    /** Starts writing a new table, sorted by {@code sortKey} at the end when it is not null. */
    public TableWriter createTable(final String name, final Schema schema, final String sortKey) {
        return write(TableSpec.of(name, schema).withSortKey(sortKey));
    }

    /** Starts writing a new table whose rows arrive already in {@code sortKey} order (checked, not sorted). */
    public TableWriter createSortedTable(final String name, final Schema schema, final String sortKey) {
        return write(TableSpec.of(name, schema).withPresortedKey(sortKey));
    }
}
