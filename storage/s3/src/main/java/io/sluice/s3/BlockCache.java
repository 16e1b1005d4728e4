package io.sluice.s3;

import io.sluice.format.Schema;
import io.sluice.format.StorageException;
import io.sluice.storage.BlockFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Block files of stores on object storage, kept on local disk: at most {@link #capacity()} bytes, the least
 * recently used dropped first. An entry is a block file as the store holds it, so it is read through the same
 * memory-mapped {@link BlockFile} as a local store's; each is verified against the block's own checksums (header and
 * every column) when fetched and, after a restart, at its first use. A damaged entry is dropped and fetched again.
 * The cache survives restarts: opening it scans its directory, oldest entries first. One process uses a directory at
 * a time (a lock on {@value #LOCK_FILE}). Thread-safe.
 */
public final class BlockCache implements AutoCloseable {
    /** The file a process locks while it uses the cache directory. */
    public static final String LOCK_FILE = ".cache.lock";
    private static final String BLOCKS = "blocks";
    private static final String ENTRY_SUFFIX = ".sbk";
    private static final String PARTIAL_SUFFIX = ".part";

    /** Fetches an entry's bytes into a new file. */
    @FunctionalInterface
    public interface Fetch {
        /** Writes the block file into {@code file} (which does not exist yet); returns its length. */
        long into(Path file);
    }

    private final Path dir;
    private final Path blocks;
    private final long capacity;
    private final FileChannel lockChannel;
    private final FileLock lock;
    /** Least recently used first. */
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(256, 0.75f, true);
    private final Map<String, Object> fetching = new ConcurrentHashMap<>();
    private long bytes;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong hitBytes = new AtomicLong();
    private final AtomicLong fetches = new AtomicLong();
    private final AtomicLong fetchedBytes = new AtomicLong();
    private final AtomicLong damaged = new AtomicLong();

    private static final class Entry {
        final Path path;
        final long size;
        boolean verified;
        int pins;

        Entry(final Path path, final long size, final boolean verified) {
            this.path = path;
            this.size = size;
            this.verified = verified;
        }
    }

    private BlockCache(final Path dir, final long capacity, final FileChannel lockChannel, final FileLock lock) {
        this.dir = dir;
        this.blocks = dir.resolve(BLOCKS);
        this.capacity = capacity;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /**
     * Opens (creating it if needed) the cache in {@code dir}, keeping at most {@code capacity} bytes of blocks, and
     * takes in the entries an earlier process left there.
     *
     * @throws StorageException when another process uses the directory, or it cannot be written
     */
    public static BlockCache open(final Path dir, final long capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a block cache needs a size of 1 byte or more, got " + capacity);
        }
        final FileChannel channel;
        final FileLock lock;
        try {
            Files.createDirectories(dir.resolve(BLOCKS));
            channel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (final IOException e) {
            throw new StorageException("cannot use block cache directory " + dir + ": " + e
                    + "; give a directory this process may write with --cache-dir", e);
        }
        try {
            lock = channel.tryLock();
        } catch (final IOException | OverlappingFileLockException e) {
            closeQuietly(channel);
            throw inUse(dir);
        }
        if (lock == null) {
            closeQuietly(channel);
            throw inUse(dir);
        }
        final BlockCache cache = new BlockCache(dir, capacity, channel, lock);
        try {
            cache.rescan();
        } catch (final RuntimeException e) {
            cache.close();
            throw e;
        }
        return cache;
    }

    private static StorageException inUse(final Path dir) {
        return new StorageException("block cache directory " + dir + " is in use by another process: give each"
                + " process (each CN) its own --cache-dir");
    }

    private void rescan() {
        final List<Path> found = new ArrayList<>();
        final List<Path> partial = new ArrayList<>();
        try {
            Files.walkFileTree(blocks, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs) {
                    final String name = file.getFileName().toString();
                    if (name.endsWith(ENTRY_SUFFIX)) {
                        found.add(file);
                    } else if (name.endsWith(PARTIAL_SUFFIX)) {
                        partial.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
            for (final Path p : partial) {
                Files.deleteIfExists(p);
            }
            final Path[] sorted = found.toArray(new Path[0]);
            final long[] modified = new long[sorted.length];
            for (int i = 0; i < sorted.length; i++) {
                modified[i] = Files.getLastModifiedTime(sorted[i]).toMillis();
            }
            final Integer[] order = new Integer[sorted.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.comparingLong(i -> modified[i]));
            synchronized (this) {
                for (final int i : order) {
                    final long size = Files.size(sorted[i]);
                    entries.put(blocks.relativize(sorted[i]).toString(), new Entry(sorted[i], size, false));
                    bytes += size;
                }
                deleteAll(evict(null));
            }
        } catch (final IOException e) {
            throw new StorageException("cannot read block cache directory " + dir + ": " + e
                    + "; delete it or give another --cache-dir", e);
        }
    }

    /** The most bytes of blocks kept. */
    public long capacity() {
        return capacity;
    }

    /** The cache's directory. */
    public Path dir() {
        return dir;
    }

    /** Bytes of blocks on disk now. */
    public synchronized long bytes() {
        return bytes;
    }

    /** Entries on disk now. */
    public synchronized int entries() {
        return entries.size();
    }

    /**
     * Whether an entry is cached under {@code key} (perhaps not yet verified: a damaged one is fetched again when
     * read).
     *
     * @param key the entry's relative path in the cache, as {@link #open} takes it
     */
    public synchronized boolean contains(final String key) {
        return entries.containsKey(key);
    }

    /** Block files opened from the cache without fetching them. */
    public long hits() {
        return hits.get();
    }

    /** Bytes of the block files opened from the cache. */
    public long hitBytes() {
        return hitBytes.get();
    }

    /** Block files fetched from object storage. */
    public long fetches() {
        return fetches.get();
    }

    /** Bytes fetched from object storage. */
    public long fetchedBytes() {
        return fetchedBytes.get();
    }

    /** Entries found damaged (checksum or length) and dropped. */
    public long damaged() {
        return damaged.get();
    }

    /**
     * Opens the block file cached under {@code key}, fetching it first when it is not cached or its entry is
     * damaged, and verifying it the first time this process uses it.
     *
     * @param key      the entry's relative path in the cache ('/'-separated, ending with {@code .sbk})
     * @param source   what the entry is a copy of, as errors name it
     * @param block    the block's index in its table, for errors
     * @param schema   the block's columns, to verify every column's checksum
     * @param verified the table's flags of verified columns, all set once this returns
     */
    public BlockFile open(final String key, final String source, final Fetch fetch, final long block,
                          final Schema schema, final boolean[] verified) {
        final BlockFile cached = openCached(key, block, schema, verified);
        if (cached != null) {
            return cached;
        }
        final Object keyLock = fetching.computeIfAbsent(key, k -> new Object());
        synchronized (keyLock) {
            try {
                final BlockFile again = openCached(key, block, schema, verified);
                if (again != null) {
                    return again;
                }
                return fetch(key, source, fetch, block, schema, verified);
            } finally {
                fetching.remove(key, keyLock);
            }
        }
    }

    private BlockFile openCached(final String key, final long block, final Schema schema, final boolean[] verified) {
        final Entry e;
        synchronized (this) {
            e = entries.get(key);
            if (e == null) {
                return null;
            }
            e.pins++;
        }
        try {
            final boolean verify;
            synchronized (this) {
                verify = !e.verified;
            }
            final BlockFile file = openVerified(e.path, block, schema, verified, verify);
            synchronized (this) {
                e.verified = true;
            }
            hits.incrementAndGet();
            hitBytes.addAndGet(e.size);
            touch(e.path);
            return file;
        } catch (final StorageException damage) {
            damaged.incrementAndGet();
            synchronized (this) {
                if (entries.get(key) == e) {
                    entries.remove(key);
                    bytes -= e.size;
                }
            }
            deleteQuietly(e.path);
            return null;
        } finally {
            synchronized (this) {
                e.pins--;
            }
        }
    }

    private BlockFile fetch(final String key, final String source, final Fetch fetch, final long block,
                            final Schema schema, final boolean[] verified) {
        final Path target = blocks.resolve(key);
        final Path partial = target.resolveSibling(target.getFileName() + "." + Thread.currentThread().getId()
                + PARTIAL_SUFFIX);
        final long size;
        try {
            Files.createDirectories(target.getParent());
            Files.deleteIfExists(partial);
            size = fetch.into(partial);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (final IOException e) {
            deleteQuietly(partial);
            throw new StorageException("cannot write block cache entry " + target + ": " + e
                    + "; free space on its disk or give another --cache-dir", e);
        } catch (final RuntimeException e) {
            deleteQuietly(partial);
            throw e;
        }
        fetches.incrementAndGet();
        fetchedBytes.addAndGet(size);
        final Entry entry = new Entry(target, size, false);
        final List<Entry> evicted;
        synchronized (this) {
            final Entry old = entries.put(key, entry);
            if (old != null) {
                bytes -= old.size;
            }
            bytes += size;
            entry.pins++;
            evicted = evict(entry);
        }
        deleteAll(evicted);
        try {
            final BlockFile file = openVerified(target, block, schema, verified, true);
            synchronized (this) {
                entry.verified = true;
            }
            return file;
        } catch (final StorageException damage) {
            synchronized (this) {
                if (entries.get(key) == entry) {
                    entries.remove(key);
                    bytes -= size;
                }
            }
            deleteQuietly(target);
            throw new StorageException("block " + block + " fetched from " + source + " is damaged: "
                    + damage.getMessage() + "; the object on the store is damaged: write the table again", damage);
        } finally {
            synchronized (this) {
                entry.pins--;
            }
        }
    }

    /** Opens a block file and, when {@code verify}, checks every column's checksum (the header is checked always). */
    private static BlockFile openVerified(final Path path, final long block, final Schema schema,
                                          final boolean[] verified, final boolean verify) {
        if (!verify) {
            return BlockFile.open(path, block, verified);
        }
        final BlockFile file = BlockFile.open(path, block, new boolean[schema.size()]);
        try {
            file.read(schema, null);
        } catch (final RuntimeException e) {
            file.close();
            throw e instanceof StorageException s ? s
                    : new StorageException("block file " + path + " (block " + block + ") is damaged: " + e, e);
        }
        if (verified != null) {
            Arrays.fill(verified, true);
        }
        return file;
    }

    /** Unlinks least recently used entries, neither pinned nor {@code keep}, while over capacity; returns them. */
    private List<Entry> evict(final Entry keep) {
        final List<Entry> evicted = new ArrayList<>();
        final Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while (bytes > capacity && it.hasNext()) {
            final Entry e = it.next().getValue();
            if (e != keep && e.pins == 0) {
                it.remove();
                bytes -= e.size;
                evicted.add(e);
            }
        }
        return evicted;
    }

    private static void deleteAll(final List<Entry> evicted) {
        for (final Entry e : evicted) {
            // A file still mapped by a reader stays readable until unmapped: deleting only unlinks its name.
            deleteQuietly(e.path);
        }
    }

    private static void touch(final Path path) {
        try {
            Files.setLastModifiedTime(path, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (final IOException e) {
            // The order after a restart is a hint only.
        }
    }

    private static void deleteQuietly(final Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (final IOException e) {
            // Left for the next rescan of the directory, which takes it in or replaces it.
        }
    }

    private static void closeQuietly(final FileChannel channel) {
        try {
            channel.close();
        } catch (final IOException e) {
            // Nothing was locked through it.
        }
    }

    /** Releases the directory for another process; entries stay on disk for the next one. */
    @Override
    public void close() {
        try {
            lock.release();
        } catch (final IOException e) {
            // Closing the channel releases it too.
        }
        closeQuietly(lockChannel);
    }
}
