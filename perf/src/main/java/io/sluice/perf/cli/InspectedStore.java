package io.sluice.perf.cli;

import io.sluice.storage.StoreLock;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code sluice inspect} found in a store: its tables, the table directories it could not read
 * (name and why), what unfinished writes left there, and the writer recorded in the store's lock.
 *
 * @param store     the store as the user named it: a directory, or s3://BUCKET/PREFIX
 * @param leftovers relative to the store directory
 * @param writer    the lock's holder, working now or gone without finishing; null when the store is not locked
 */
record InspectedStore(String store, List<InspectedTable> tables, List<Damaged> damaged, List<Path> leftovers,
                      StoreLock.Holder writer) {
    /** A table directory that could not be read, and why. */
    record Damaged(String name, String problem) {
    }

    InspectedStore {
        tables = List.copyOf(tables);
        damaged = List.copyOf(damaged);
        leftovers = List.copyOf(leftovers);
    }

    /** What to say about the leftovers and the lock, or null when there is nothing to say. */
    String writesNote() {
        if (writer != null && writer.alive()) {
            return "being written now by " + writer + (leftovers.isEmpty() ? ""
                    : "; its work in progress: " + join(leftovers));
        }
        if (writer == null && leftovers.isEmpty()) {
            return null;
        }
        return "an unfinished write " + (writer == null ? "" : "by " + writer + ", which ended without releasing the"
                + " store's lock, ") + "left " + (leftovers.isEmpty() ? "nothing" : join(leftovers))
                + "; the next sluice gen or sluice import into this store removes it";
    }

    private static String join(final List<Path> paths) {
        final StringBuilder sb = new StringBuilder();
        for (final Path p : paths) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p);
        }
        return sb.toString();
    }
}
