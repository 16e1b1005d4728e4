package io.sluice.storage;

import com.sun.management.UnixOperatingSystemMXBean;
import io.sluice.format.StorageException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.function.IntFunction;

/**
 * The block files a process keeps open and mapped, at most {@link #capacity()} of them that no read
 * is using: a scan acquires a block's file, reads it and releases it, and the least recently used
 * released files are closed (unmapped, their descriptors freed) when more are open. A block file
 * costs a file descriptor and a memory mapping, so a store of more blocks than {@code ulimit -n} or
 * {@code vm.max_map_count} allows is read through one of these. Files in use are never closed under
 * their reader; while more than {@code capacity} are in use at once, that many stay open.
 *
 * <p>One cache serves every table opened through it (a {@link Store} hands its own to its tables);
 * {@link #shared()} is the process's default, sized by the system property
 * {@value #CAPACITY_PROPERTY} or, without it, from the process's file descriptor limit. A hit
 * allocates nothing. Thread-safe.
 */
public final class BlockFileCache {
    /** System property giving the shared cache's capacity (open block files). */
    public static final String CAPACITY_PROPERTY = "sluice.storage.openBlockFiles";
    /** Capacity of the shared cache when neither the property nor the descriptor limit says otherwise. */
    public static final int DEFAULT_CAPACITY = 4096;
    private static final int MAX_DEFAULT_CAPACITY = 16384;
    private static final int MIN_DEFAULT_CAPACITY = 16;
    private static volatile BlockFileCache shared;

    private final int capacity;
    /** Most recently released or acquired first; only entries still in a table's slots are linked. */
    private Handle head;
    private Handle tail;
    private int open;
    private long opened;

    /**
     * A cache keeping at most {@code capacity} unused block files open.
     *
     * @param capacity 1 or more
     */
    public BlockFileCache(final int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a block file cache needs a capacity of 1 or more, got " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * The process's cache: capacity from {@value #CAPACITY_PROPERTY}, else half the file descriptor
     * limit (16..16384), so the rest stays free for sockets, jars and Aeron.
     */
    public static BlockFileCache shared() {
        BlockFileCache cache = shared;
        if (cache == null) {
            synchronized (BlockFileCache.class) {
                cache = shared;
                if (cache == null) {
                    cache = new BlockFileCache(defaultCapacity());
                    shared = cache;
                }
            }
        }
        return cache;
    }

    private static int defaultCapacity() {
        final String configured = System.getProperty(CAPACITY_PROPERTY);
        if (configured != null) {
            try {
                return Integer.parseInt(configured.trim());
            } catch (final NumberFormatException e) {
                throw new StorageException("system property " + CAPACITY_PROPERTY + "=" + configured
                        + " is not a number: give the open block files to keep, e.g. -D" + CAPACITY_PROPERTY + "=4096");
            }
        }
        final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof UnixOperatingSystemMXBean unix && unix.getMaxFileDescriptorCount() > 0) {
            return (int) Math.max(MIN_DEFAULT_CAPACITY, Math.min(MAX_DEFAULT_CAPACITY, unix.getMaxFileDescriptorCount() / 2));
        }
        return DEFAULT_CAPACITY;
    }

    /** The most unused block files kept open. */
    public int capacity() {
        return capacity;
    }

    /** Block files open now, in use or not. */
    public synchronized int openFiles() {
        return open;
    }

    /** Block files opened since the cache was made (a measure of misses). */
    public synchronized long filesOpened() {
        return opened;
    }

    /**
     * A block's open file, opening it with {@code opener} when it is not open; release it with
     * {@link Handle#close()} when done reading.
     *
     * @param slots  the table's open files, one slot per block, read and written only by this cache
     * @param block  the block's index in {@code slots}
     * @param opener opens the block's file
     */
    Handle acquire(final Handle[] slots, final int block, final IntFunction<BlockFile> opener) {
        synchronized (this) {
            final Handle h = slots[block];
            if (h != null) {
                h.users++;
                moveToFront(h);
                return h;
            }
        }
        final BlockFile file = opener.apply(block);
        final Handle result;
        BlockFile duplicate = null;
        Handle closing;
        synchronized (this) {
            final Handle h = slots[block];
            if (h != null) {
                duplicate = file;
                h.users++;
                moveToFront(h);
                result = h;
            } else {
                result = new Handle(this, slots, block, file);
                result.users = 1;
                slots[block] = result;
                linkFront(result);
                open++;
                opened++;
            }
            closing = evict();
        }
        if (duplicate != null) {
            duplicate.close();
        }
        closeAll(closing);
        return result;
    }

    /** Forgets every open file of a table, closing those not in use now and the others when released. */
    void drop(final Handle[] slots) {
        Handle closing = null;
        synchronized (this) {
            for (int b = 0; b < slots.length; b++) {
                final Handle h = slots[b];
                if (h == null) {
                    continue;
                }
                slots[b] = null;
                unlink(h);
                h.dropped = true;
                if (h.users == 0) {
                    open--;
                    h.nextClosing = closing;
                    closing = h;
                }
            }
        }
        closeAll(closing);
    }

    private void release(final Handle h) {
        Handle closing;
        synchronized (this) {
            if (h.users <= 0) {
                throw new IllegalStateException("block file " + h.file.path() + " released more often than acquired");
            }
            h.users--;
            if (h.dropped) {
                if (h.users == 0) {
                    open--;
                    closing = h;
                } else {
                    closing = null;
                }
            } else {
                closing = evict();
            }
        }
        closeAll(closing);
    }

    /** Unlinks unused files from the least recent end while more than the capacity are open; returns them chained. */
    private Handle evict() {
        Handle closing = null;
        Handle h = tail;
        while (open > capacity && h != null) {
            final Handle before = h.prev;
            if (h.users == 0) {
                unlink(h);
                h.slots[h.block] = null;
                open--;
                h.nextClosing = closing;
                closing = h;
            }
            h = before;
        }
        return closing;
    }

    private static void closeAll(final Handle first) {
        for (Handle h = first; h != null; ) {
            final Handle next = h.nextClosing;
            h.nextClosing = null;
            h.file.close();
            h = next;
        }
    }

    private void moveToFront(final Handle h) {
        if (head != h) {
            unlink(h);
            linkFront(h);
        }
    }

    private void linkFront(final Handle h) {
        h.prev = null;
        h.next = head;
        if (head != null) {
            head.prev = h;
        }
        head = h;
        if (tail == null) {
            tail = h;
        }
    }

    private void unlink(final Handle h) {
        if (h.prev != null) {
            h.prev.next = h.next;
        } else if (head == h) {
            head = h.next;
        }
        if (h.next != null) {
            h.next.prev = h.prev;
        } else if (tail == h) {
            tail = h.prev;
        }
        h.prev = null;
        h.next = null;
    }

    /**
     * One open block file lent to a reader: {@link #file()} is valid until {@link #close()}, which
     * gives it back to the cache (it may stay open for the next reader). Acquiring an open file
     * again returns the same handle, so each acquire needs its own close.
     */
    public static final class Handle implements AutoCloseable {
        private final BlockFileCache cache;
        private final Handle[] slots;
        private final int block;
        private final BlockFile file;
        private int users;
        private boolean dropped;
        private Handle prev;
        private Handle next;
        private Handle nextClosing;

        private Handle(final BlockFileCache cache, final Handle[] slots, final int block, final BlockFile file) {
            this.cache = cache;
            this.slots = slots;
            this.block = block;
            this.file = file;
        }

        /** The open, header-verified block file. */
        public BlockFile file() {
            return file;
        }

        /** Gives the file back to the cache. */
        @Override
        public void close() {
            cache.release(this);
        }
    }
}
