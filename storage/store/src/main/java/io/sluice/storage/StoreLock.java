package io.sluice.storage;

import io.sluice.format.StorageException;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one writer of a store: an exclusive lock ({@link FileChannel#tryLock()}) on the store's
 * {@value #FILE} file, which also records who holds it (pid, host, command, since when). A second
 * writer fails at once with an error naming the holder. The operating system releases the lock when
 * its process dies, however it dies; the record it leaves behind then marks a stale lock, which the
 * next writer takes over ({@link #staleHolder()} says whose it was). Closing the lock empties the
 * record, so a lock file with a record and no lock is always a writer that did not finish.
 *
 * <p>Readers take no lock: tables are replaced by switching their manifest to a complete new
 * version, so a reader never needs to wait for a writer.
 */
public final class StoreLock implements AutoCloseable {
    /** The lock file's name inside the store directory (hidden, so it is never taken for a table). */
    public static final String FILE = ".lock";
    /**
     * Stores locked by this process, by real path. A second lock on one file in one JVM cannot be
     * taken, and opening the file again would be worse: closing any descriptor of it drops the
     * process's lock. So {@link #acquire} checks here first, one caller at a time.
     */
    private static final Map<Path, StoreLock> HELD = new ConcurrentHashMap<>();

    private final Path key;
    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private final Holder holder;
    private final Holder staleHolder;
    private List<Path> removedLeftovers = List.of();
    private Runnable onRelease = () -> { };
    private boolean closed;

    /**
     * Who holds (or held) a lock.
     *
     * @param pid     the holder's process id
     * @param host    the host it runs on
     * @param command what it is doing, e.g. {@code sluice gen --sf 1 --out data/sf1}
     * @param since   when it took the lock
     */
    public record Holder(long pid, String host, String command, Instant since) {
        /** Whether the holder's process still runs (only known for a holder on this host). */
        public boolean alive() {
            return host.equals(localHost()) && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }

        @Override
        public String toString() {
            return "pid " + pid + " on " + host + " (" + command + "), since " + since;
        }

        String record() {
            final Properties p = new Properties();
            p.setProperty("pid", Long.toString(pid));
            p.setProperty("host", host);
            p.setProperty("command", command);
            p.setProperty("since", since.toString());
            final StringWriter text = new StringWriter();
            try {
                p.store(text, "the writer holding this store's lock");
            } catch (final IOException e) {
                throw new IllegalStateException(e);
            }
            return text.toString();
        }

        static Holder parse(final String record) {
            if (record.isBlank()) {
                return null;
            }
            final Properties p = new Properties();
            try {
                p.load(new StringReader(record));
                return new Holder(Long.parseLong(p.getProperty("pid", "-1")), p.getProperty("host", "?"),
                        p.getProperty("command", "?"), Instant.parse(p.getProperty("since", Instant.EPOCH.toString())));
            } catch (final IOException | RuntimeException e) {
                return new Holder(-1, "?", "an unreadable record: " + record.strip(), Instant.EPOCH);
            }
        }
    }

    private StoreLock(final Path key, final Path file, final FileChannel channel, final FileLock lock,
                      final Holder holder, final Holder staleHolder) {
        this.key = key;
        this.file = file;
        this.channel = channel;
        this.lock = lock;
        this.holder = holder;
        this.staleHolder = staleHolder;
    }

    /**
     * Takes a store's lock, or fails at once.
     *
     * @param command what the writer does, recorded for whoever finds the store locked
     * @throws StorageException naming the holder when another writer, in this or another process, has it
     */
    public static synchronized StoreLock acquire(final Path storeDir, final String command) {
        final Path key;
        try {
            key = storeDir.toRealPath();
        } catch (final IOException e) {
            throw new StorageException("cannot lock store " + storeDir + ": " + e, e);
        }
        final StoreLock mine = HELD.get(key);
        if (mine != null) {
            throw locked(storeDir, mine.holder, "this process");
        }
        final Path file = key.resolve(FILE);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            final FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (final OverlappingFileLockException e) {
                throw locked(storeDir, null, "this process");
            }
            if (lock == null) {
                throw locked(storeDir, Holder.parse(read(channel)), "another process");
            }
            final Holder stale = Holder.parse(read(channel));
            final Holder holder = new Holder(ProcessHandle.current().pid(), localHost(), command,
                    Instant.now().truncatedTo(ChronoUnit.SECONDS));
            final StoreLock taken = new StoreLock(key, file, channel, lock, holder, stale);
            write(channel, holder.record());
            HELD.put(key, taken);
            return taken;
        } catch (final IOException e) {
            closeQuietly(channel);
            throw new StorageException("cannot lock store " + storeDir + " (" + file + "): " + e
                    + "; check that the directory is writable", e);
        } catch (final RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /**
     * Who holds a store's lock now, or who held it last without releasing it (then
     * {@link Holder#alive()} is false): the record in its lock file, read without locking.
     */
    public static Optional<Holder> recorded(final Path storeDir) {
        final StoreLock mine = heldHere(storeDir);
        if (mine != null) {
            // Reading the file would open and close a descriptor of it, which drops this process's lock.
            return Optional.of(mine.holder);
        }
        try {
            return Optional.ofNullable(Holder.parse(Files.readString(storeDir.resolve(FILE), StandardCharsets.UTF_8)));
        } catch (final NoSuchFileException e) {
            return Optional.empty();
        } catch (final IOException e) {
            throw new StorageException("cannot read the lock file of store " + storeDir + ": " + e, e);
        }
    }

    /** The lock this process holds on a store, or null. */
    static StoreLock heldHere(final Path storeDir) {
        try {
            return HELD.get(storeDir.toRealPath());
        } catch (final IOException e) {
            return null;
        }
    }

    private static StorageException locked(final Path storeDir, final Holder holder, final String where) {
        return new StorageException("store " + storeDir + " is locked by another writer in " + where + ": "
                + (holder == null ? "(no record of who)" : holder)
                + "; one writer at a time: wait until it has finished, then run this again");
    }

    /** This writer. */
    public Holder holder() {
        return holder;
    }

    /** The writer whose lock this one took over (it ended without releasing it), or null. */
    public Holder staleHolder() {
        return staleHolder;
    }

    /** What the store removed when this lock was taken: leftovers of writes that did not finish. */
    public List<Path> removedLeftovers() {
        return removedLeftovers;
    }

    /** Records what the store removed under this lock, and what to run once the lock is released. */
    void onRelease(final List<Path> removed, final Runnable action) {
        this.removedLeftovers = List.copyOf(removed);
        this.onRelease = action;
    }

    /** The store directory, as a real path. */
    public Path storeDir() {
        return key;
    }

    /** Empties the record and releases the lock. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.truncate(0);
            channel.force(false);
            lock.release();
        } catch (final IOException e) {
            throw new StorageException("cannot release the lock of store " + key + " (" + file + "): " + e, e);
        } finally {
            HELD.remove(key, this);
            closeQuietly(channel);
            onRelease.run();
        }
    }

    private static String read(final FileChannel channel) throws IOException {
        final long size = channel.size();
        final ByteBuffer bytes = ByteBuffer.allocate((int) Math.min(size, 64 * 1024));
        while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) > 0) {
            // read until the buffer is full or the file ends
        }
        return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
    }

    private static void write(final FileChannel channel, final String text) throws IOException {
        channel.truncate(0);
        final ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
            channel.write(bytes, bytes.position());
        }
        channel.force(false);
    }

    private static void closeQuietly(final FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (final IOException e) {
                // Closing releases the lock anyway; there is nothing left to undo.
            }
        }
    }

    static String localHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            return "localhost";
        }
    }
}
