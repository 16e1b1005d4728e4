package io.sluice.engine.spill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One query's spill files on one process: a folder made when the query first spills, and everything in
 * it removed by {@link #close()}, which runs where the query's memory is given back (when it ends, fails
 * or is cancelled). Counts the files and bytes written, for statistics and for tests that a query did
 * spill.
 */
public final class QuerySpill implements AutoCloseable {
    private final Path folder;
    private final SpillSpace space;
    private final AtomicLong files = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private volatile boolean closed;

    QuerySpill(final Path folder, final SpillSpace space) {
        this.folder = folder;
        this.space = space;
    }

    /** The query's folder; it exists only once the query spilled. */
    public Path folder() {
        return folder;
    }

    /**
     * A new spill file for {@code what} (an operator's run or partition), open for writing.
     *
     * @throws SpillFileException when the query already ended, or the file cannot be made
     */
    public SpillWriter writer(final String what) {
        if (closed) {
            throw new IllegalStateException("the query's spill files were already removed: " + folder
                    + " cannot take a file for " + what + " after the query ended");
        }
        final Path file = folder.resolve(Long.toString(files.incrementAndGet()) + ".spill");
        try {
            Files.createDirectories(folder);
        } catch (final IOException e) {
            throw new SpillFileException("cannot make the spill folder " + folder + " for " + what
                    + ": set -Dsluice.spill.dir=PATH to a writable folder with free space, or turn spilling off"
                    + " with -Dsluice.spill=off", e);
        }
        space.counted(what, 0, true);
        return new SpillWriter(file, written -> {
            bytes.addAndGet(written);
            space.counted(what, written, false);
        });
    }

    /** Spill files made so far. */
    public long files() {
        return files.get();
    }

    /** Bytes written to spill files so far. */
    public long bytes() {
        return bytes.get();
    }

    /** Removes the query's folder and every file in it. */
    @Override
    public void close() {
        closed = true;
        try {
            SpillSpace.delete(folder);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot remove the spill folder " + folder + " of a query that ended;"
                    + " remove it by hand, it holds nothing another query reads", e);
        }
    }

    @Override
    public String toString() {
        return "spill files of a query in " + folder;
    }
}
