package io.sluice.parquet;

import io.sluice.format.StorageException;
import io.sluice.format.spi.Catalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The Parquet tables under a directory: every {@code NAME.parquet} file, and every {@code NAME/}
 * folder holding {@code .parquet} files (read in name order), is table {@code NAME}. The directory is
 * listed when the catalog opens; each table opens (its footers read) on first use and stays open until
 * the catalog closes. Thread-safe.
 */
public final class ParquetCatalog implements Catalog, AutoCloseable {
    private static final String SUFFIX = ".parquet";

    private final Path dir;
    private final Map<String, List<Path>> files;
    private final Map<String, ParquetTable> open = new HashMap<>();

    private ParquetCatalog(final Path dir, final Map<String, List<Path>> files) {
        this.dir = dir;
        this.files = files;
    }

    /**
     * Lists the tables under {@code dir}.
     *
     * @throws StorageException when {@code dir} is not a readable directory, holds no Parquet file, or names a
     *                          table twice (a file and a folder)
     */
    public static ParquetCatalog open(final Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new StorageException("parquet directory " + dir + " does not exist or is not a directory: give the"
                    + " folder that holds NAME.parquet files or NAME/ folders of Parquet files");
        }
        final Map<String, List<Path>> files = new TreeMap<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (final Path entry : entries.sorted().toList()) {
                final String file = entry.getFileName().toString();
                if (file.startsWith(".")) {
                    continue;
                }
                if (Files.isRegularFile(entry) && file.endsWith(SUFFIX) && file.length() > SUFFIX.length()) {
                    add(files, file.substring(0, file.length() - SUFFIX.length()), List.of(entry), dir);
                } else if (Files.isDirectory(entry)) {
                    final List<Path> parts = parquetFilesIn(entry);
                    if (!parts.isEmpty()) {
                        add(files, file, parts, dir);
                    }
                }
            }
        } catch (final IOException e) {
            throw new StorageException("parquet directory " + dir + " cannot be listed: " + e.getMessage(), e);
        }
        if (files.isEmpty()) {
            throw new StorageException("parquet directory " + dir + " holds no table: put NAME.parquet files or NAME/"
                    + " folders of .parquet files in it");
        }
        return new ParquetCatalog(dir, files);
    }

    private static List<Path> parquetFilesIn(final Path folder) throws IOException {
        final List<Path> parts = new ArrayList<>();
        try (Stream<Path> entries = Files.list(folder)) {
            for (final Path p : entries.sorted().toList()) {
                final String n = p.getFileName().toString();
                if (!n.startsWith(".") && n.endsWith(SUFFIX) && Files.isRegularFile(p)) {
                    parts.add(p);
                }
            }
        }
        return parts;
    }

    private static void add(final Map<String, List<Path>> files, final String name, final List<Path> paths,
                            final Path dir) {
        if (files.putIfAbsent(name, paths) != null) {
            throw new StorageException("parquet directory " + dir + " names table '" + name + "' twice, as "
                    + name + SUFFIX + " and as folder " + name + "/: remove or rename one of them");
        }
    }

    /** The directory the tables are in. */
    public Path dir() {
        return dir;
    }

    /** The tables' names, sorted. */
    public List<String> tableNames() {
        return List.copyOf(files.keySet());
    }

    /**
     * The files of a table, in the order their row groups are its blocks.
     *
     * @throws StorageException when there is no such table
     */
    public List<Path> files(final String name) {
        final List<Path> paths = files.get(name);
        if (paths == null) {
            throw new StorageException("parquet directory " + dir + " has no table '" + name + "' (it has "
                    + tableNames() + ")");
        }
        return paths;
    }

    /** Whether there is a table of that name. */
    public boolean hasTable(final String name) {
        return files.containsKey(name);
    }

    @Override
    public synchronized ParquetTable table(final String name) {
        final ParquetTable table = open.get(name);
        if (table != null) {
            return table;
        }
        final List<Path> paths = files.get(name);
        if (paths == null) {
            throw new StorageException("parquet directory " + dir + " has no table '" + name + "' (it has "
                    + tableNames() + "): add " + name + SUFFIX + " or a folder " + name + "/ of Parquet files to it");
        }
        final ParquetTable opened = ParquetTable.open(name, paths);
        open.put(name, opened);
        return opened;
    }

    /** Closes every table opened. */
    @Override
    public synchronized void close() {
        for (final ParquetTable t : open.values()) {
            t.close();
        }
        open.clear();
    }
}
