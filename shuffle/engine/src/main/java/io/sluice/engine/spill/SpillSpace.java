package io.sluice.engine.spill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This process's place for spill files: {@code <root>/<pid>}, one folder a query inside it. When a process
 * first spills under a root it removes the folders there of processes that are no longer alive (a CN
 * killed mid-query leaves its files behind; the next process to start under the same root takes them
 * away), and leaves the folders of live processes alone.
 */
public final class SpillSpace {
    private static final ConcurrentHashMap<Path, SpillSpace> SPACES = new ConcurrentHashMap<>();

    private final Path root;
    private final Path folder;
    private final AtomicLong queries = new AtomicLong();
    private final AtomicLong files = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final ConcurrentHashMap<String, AtomicLong> bytesByOperator = new ConcurrentHashMap<>();

    private SpillSpace(final Path root) {
        this.root = root;
        this.folder = root.resolve(Long.toString(ProcessHandle.current().pid()));
    }

    /**
     * This process's space under {@code root}, made (and the stale folders of dead processes under it
     * removed) the first time it is asked for.
     */
    public static SpillSpace under(final Path root) {
        return SPACES.computeIfAbsent(root.toAbsolutePath().normalize(), r -> {
            final SpillSpace space = new SpillSpace(r);
            space.removeStale();
            // A process that ends normally takes its folder with it; one killed leaves it to the next.
            Runtime.getRuntime().addShutdownHook(new Thread(space::removeOwn, "sluice-spill-cleanup"));
            return space;
        });
    }

    /** The folder under the root all of whose spill files are this process's. */
    public Path folder() {
        return folder;
    }

    /** A fresh place for one query's files; nothing is made on disk until it spills. */
    public QuerySpill query() {
        return new QuerySpill(folder.resolve("q" + queries.incrementAndGet()), this);
    }

    /** Spill files the queries of this process made under this root, since it started. */
    public long files() {
        return files.get();
    }

    /** Bytes the queries of this process wrote under this root, since it started. */
    public long bytes() {
        return bytes.get();
    }

    /** Bytes written under this root since the process started, by the operator that wrote them. */
    public java.util.Map<String, Long> bytesByOperator() {
        final java.util.Map<String, Long> out = new java.util.TreeMap<>();
        bytesByOperator.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    void counted(final String operator, final long written, final boolean newFile) {
        if (newFile) {
            files.incrementAndGet();
        }
        bytes.addAndGet(written);
        bytesByOperator.computeIfAbsent(operator, k -> new AtomicLong()).addAndGet(written);
    }

    private void removeOwn() {
        try {
            delete(folder);
        } catch (final IOException e) {
            System.err.println("cannot remove the spill folder " + folder + " at exit: " + e.getMessage()
                    + "; the next process to spill under " + root + " removes it");
        }
    }

    /** Removes the folders under the root named by a pid of no living process; returns how many. */
    int removeStale() {
        if (!Files.isDirectory(root)) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (final Path entry : entries) {
                final long pid = pidOf(entry.getFileName().toString());
                if (pid > 0 && pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty()) {
                    delete(entry);
                    removed++;
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list the spill folder " + root + " to remove the files of"
                    + " processes that ended: check its permissions, or set -Dsluice.spill.dir=PATH", e);
        }
        return removed;
    }

    private static long pidOf(final String name) {
        if (name.isEmpty() || name.length() > 18) {
            return -1;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(name);
    }

    /** Removes a file or a folder with everything in it; what is already gone is no error. */
    static void delete(final Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(final Path file, final IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(final Path dir, final IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    @Override
    public String toString() {
        return "spill space " + folder;
    }
}
