package io.sluice.perf.cli;

import io.sluice.storage.Store;
import io.sluice.storage.StoreContents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * The directory {@code sluice gen} writes a store into, checked before any work is done: missing
 * (then created), empty, or a Sluice store (tables, damaged tables, leftovers of unfinished writes,
 * the lock). A directory holding anything else is refused, so a mistyped {@code --out} never fills
 * a directory of other files with tables.
 */
final class OutputDirectory {
    private static final int SHOWN = 5;

    private OutputDirectory() {
    }

    /**
     * Checks (and creates, if missing) the output directory.
     *
     * @throws IllegalArgumentException saying what is wrong and what to do instead
     */
    static Store open(final Path dir) {
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
        final List<Path> foreign = StoreContents.of(dir).foreign();
        if (!foreign.isEmpty()) {
            throw new IllegalArgumentException("output directory " + dir + " is not a Sluice store: it holds "
                    + describe(foreign) + ", which Sluice did not write; gen writes into a new or empty directory or"
                    + " a store: choose another directory");
        }
        return Store.open(dir);
    }

    /** The first few entries' names, and how many more there are. */
    static String describe(final List<Path> entries) {
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
