package io.sluice.perf.cli;

import io.sluice.format.StorageException;
import io.sluice.storage.TableManifest;
import io.sluice.storage.ZoneMapIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The directory {@code sluice gen} writes a store into, checked before any work is done. An
 * existing non-empty directory is only reused with {@code --force}, and then only if everything
 * in it is a table Sluice wrote (a directory with a manifest, or a hidden {@code .NAME.partial}
 * directory left by an interrupted write) holding only Sluice's files; those tables are deleted.
 * Anything else in it makes {@code --force} refuse: a random directory is never wiped.
 */
final class OutputDirectory {
    private static final Pattern PARTIAL = Pattern.compile("\\.[A-Za-z_][A-Za-z0-9_]*\\.partial");
    private static final Pattern BLOCK_FILE = Pattern.compile("block-\\d{6}\\.sbk");
    private static final int SHOWN = 5;

    private final Path dir;
    private final List<Path> tablesToDelete;

    private OutputDirectory(final Path dir, final List<Path> tablesToDelete) {
        this.dir = dir;
        this.tablesToDelete = tablesToDelete;
    }

    /**
     * Checks (and creates, if missing) the output directory; deletes nothing yet.
     *
     * @throws IllegalArgumentException saying what is wrong and what to do instead
     */
    static OutputDirectory check(final Path dir, final boolean force) {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--out " + dir + " exists and is not a directory: choose a directory");
        }
        try {
            Files.createDirectories(dir);
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot create output directory " + dir + " (" + e
                    + "): choose a directory you can write to");
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalArgumentException("output directory " + dir + " is not writable: choose another directory");
        }
        final List<Path> entries = list(dir);
        if (entries.isEmpty()) {
            return new OutputDirectory(dir, List.of());
        }
        if (!force) {
            throw new IllegalArgumentException("output directory " + dir + " is not empty (" + describe(entries)
                    + "): use --force to replace the Sluice tables in it, or choose another directory");
        }
        final List<Path> foreign = new ArrayList<>();
        for (final Path entry : entries) {
            if (!isSluiceTable(entry)) {
                foreign.add(entry);
            }
        }
        if (!foreign.isEmpty()) {
            throw new IllegalArgumentException("refusing to --force output directory " + dir
                    + ": it holds things Sluice did not write (" + describe(foreign)
                    + "); move them away or choose another directory");
        }
        return new OutputDirectory(dir, entries);
    }

    /** The directory. */
    Path dir() {
        return dir;
    }

    /** The Sluice tables {@link #clear()} deletes. */
    List<Path> tablesToDelete() {
        return tablesToDelete;
    }

    /** Deletes the Sluice tables found by {@link #check}. */
    void clear() {
        for (final Path table : tablesToDelete) {
            try {
                for (final Path file : list(table)) {
                    Files.delete(file);
                }
                Files.delete(table);
            } catch (final IOException e) {
                throw new StorageException("cannot delete old table " + table + ": " + e
                        + "; delete it by hand or choose another directory");
            }
        }
    }

    private static boolean isSluiceTable(final Path entry) {
        if (Files.isSymbolicLink(entry) || !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        final boolean partial = PARTIAL.matcher(entry.getFileName().toString()).matches();
        if (!partial && !Files.isRegularFile(entry.resolve(TableManifest.FILE), LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        for (final Path file : list(entry)) {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || !isSluiceFile(file.getFileName().toString())) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSluiceFile(final String name) {
        return name.equals(TableManifest.FILE) || name.equals(TableManifest.FILE + ".tmp")
                || name.equals(ZoneMapIndex.FILE) || BLOCK_FILE.matcher(name).matches();
    }

    private static List<Path> list(final Path dir) {
        try (Stream<Path> children = Files.list(dir)) {
            return children.sorted().toList();
        } catch (final IOException e) {
            throw new StorageException("cannot list " + dir + ": " + e);
        }
    }

    private static String describe(final List<Path> entries) {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(SHOWN, entries.size()); i++) {
            sb.append(i == 0 ? "" : ", ").append(entries.get(i).getFileName());
        }
        if (entries.size() > SHOWN) {
            sb.append(" and ").append(entries.size() - SHOWN).append(" more");
        }
        return sb.toString();
    }
}
