package io.sluice.storage;

import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** A directory of tables: every CN reads every table from it (shared storage). */
public final class Store {
    private final Path dir;

    private Store(final Path dir) {
        this.dir = dir;
    }

    /** Opens an existing store directory. */
    public static Store open(final Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new StorageException("store " + dir + " does not exist: create one with 'sluice gen --out "
                    + dir + "' or 'sluice import --store " + dir + " ...'");
        }
        return new Store(dir);
    }

    /** Opens a store, creating its directory if needed. */
    public static Store create(final Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (final IOException e) {
            throw new StorageException("cannot create store directory " + dir + ": " + e, e);
        }
        return new Store(dir);
    }

    /** The store's directory. */
    public Path dir() {
        return dir;
    }

    /** Names of the complete tables (directories with a manifest), sorted. */
    public List<String> tableNames() {
        final List<String> names = new ArrayList<>();
        try (Stream<Path> children = Files.list(dir)) {
            children.filter(p -> Files.isRegularFile(p.resolve(TableManifest.FILE)))
                    .forEach(p -> names.add(p.getFileName().toString()));
        } catch (final IOException e) {
            throw new StorageException("cannot list store " + dir + ": " + e, e);
        }
        names.sort(null);
        return names;
    }

    /** Whether a complete table of that name exists. */
    public boolean hasTable(final String name) {
        return Files.isRegularFile(dir.resolve(name).resolve(TableManifest.FILE));
    }

    /** Opens a table; the error lists the tables there are. */
    public Table table(final String name) {
        if (!hasTable(name)) {
            throw new StorageException("no table '" + name + "' in store " + dir + "; tables are " + tableNames());
        }
        return Table.open(dir.resolve(name));
    }

    /** Starts writing a new table (see {@link TableWriter}). */
    public TableWriter createTable(final String name, final Schema schema, final String sortKey) {
        return TableWriter.create(dir, name, schema, sortKey);
    }

    /** Starts writing a new table whose rows arrive already in {@code sortKey} order (checked, not sorted). */
    public TableWriter createSortedTable(final String name, final Schema schema, final String sortKey) {
        return TableWriter.create(dir, name, schema, sortKey, true);
    }
}
