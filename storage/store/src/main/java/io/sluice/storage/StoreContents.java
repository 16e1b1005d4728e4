package io.sluice.storage;

import io.sluice.format.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a store directory holds, entry by entry: complete tables (a directory with a manifest),
 * damaged ones (a table's directory without a manifest, holding Sluice's files and nothing else), leftovers of a
 * write that did not finish (a hidden {@code .NAME.partial} directory, a table's version directory
 * its manifest does not name, a manifest's temporary file, the block files of format 1 beside a
 * newer version) and anything else, which is foreign: Sluice never deletes it.
 *
 * @param tables    names of the complete tables, sorted
 * @param damaged   table directories without a manifest
 * @param leftovers what an unfinished write left, safe to delete while holding the store's lock
 * @param foreign   entries Sluice did not write
 */
public record StoreContents(List<String> tables, List<Path> damaged, List<Path> leftovers, List<Path> foreign) {
    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern PARTIAL = Pattern.compile("\\.[A-Za-z_][A-Za-z0-9_]*\\.partial");
    private static final Pattern VERSION_DIR = Pattern.compile("v[1-9][0-9]*");
    private static final Pattern BLOCK_FILE = Pattern.compile("block-\\d{6}\\.sbk");

    /** Copies the lists. */
    public StoreContents {
        tables = List.copyOf(tables);
        damaged = List.copyOf(damaged);
        leftovers = List.copyOf(leftovers);
        foreign = List.copyOf(foreign);
    }

    /** Whether a name is a valid table name: letters, digits and '_', not starting with a digit. */
    public static boolean isTableName(final String name) {
        return TABLE_NAME.matcher(name).matches();
    }

    /** The hidden directory a table is first written into. */
    static String partialDirName(final String table) {
        return "." + table + ".partial";
    }

    /** Looks at every entry of a store directory (reads manifests, opens no block file). */
    public static StoreContents of(final Path storeDir) {
        final List<String> tables = new ArrayList<>();
        final List<Path> damaged = new ArrayList<>();
        final List<Path> leftovers = new ArrayList<>();
        final List<Path> foreign = new ArrayList<>();
        for (final Path entry : list(storeDir)) {
            final String name = entry.getFileName().toString();
            final boolean directory = Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS);
            if (name.equals(StoreLock.FILE) && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            if (directory && PARTIAL.matcher(name).matches()) {
                leftovers.add(entry);
            } else if (directory && isTableName(name)
                    && Files.isRegularFile(entry.resolve(TableManifest.FILE), LinkOption.NOFOLLOW_LINKS)) {
                tables.add(name);
                leftovers.addAll(leftoversOfTable(entry));
            } else if (directory && isTableName(name) && !list(entry).isEmpty() && holdsOnlySluiceFiles(entry)) {
                damaged.add(entry);
            } else {
                foreign.add(entry);
            }
        }
        tables.sort(null);
        return new StoreContents(tables, damaged, leftovers, foreign);
    }

    /** The files and directories in a table directory that its manifest's version does not use. */
    static List<Path> leftoversOfTable(final Path tableDir) {
        final int version;
        try {
            version = TableManifest.read(tableDir).version();
        } catch (final StorageException e) {
            return List.of();
        }
        final List<Path> leftovers = new ArrayList<>();
        for (final Path entry : list(tableDir)) {
            final String name = entry.getFileName().toString();
            final boolean directory = Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS);
            if (name.equals(TableManifest.TEMPORARY_FILE)
                    || directory && VERSION_DIR.matcher(name).matches()
                            && !name.equals(TableManifest.versionDirName(version))
                    || version > 0 && !directory && isFormatOneFile(name)) {
                leftovers.add(entry);
            }
        }
        return leftovers;
    }

    /** Whether a directory without a manifest holds only what Sluice writes into table directories. */
    static boolean holdsOnlySluiceFiles(final Path dir) {
        for (final Path entry : list(dir)) {
            final String name = entry.getFileName().toString();
            final boolean sluice = Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
                    ? VERSION_DIR.matcher(name).matches() && holdsOnlySluiceFiles(entry)
                    : Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)
                            && (isFormatOneFile(name) || name.equals(TableManifest.TEMPORARY_FILE));
            if (!sluice) {
                return false;
            }
        }
        return true;
    }

    private static boolean isFormatOneFile(final String name) {
        return name.equals(ZoneMapIndex.FILE) || name.equals(StatisticsFile.FILE)
                || name.equals(StatisticsFile.TEMPORARY_FILE) || BLOCK_FILE.matcher(name).matches();
    }

    private static List<Path> list(final Path dir) {
        try (Stream<Path> children = Files.list(dir)) {
            return children.sorted().toList();
        } catch (final IOException e) {
            throw new StorageException("cannot list " + dir + ": " + e, e);
        }
    }
}
