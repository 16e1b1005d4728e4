package io.sluice.engine.exec;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory the operators of all running queries of one process (one CN) may hold together
 * ({@code sluice.memory.pool}, by default 80% of the maximum heap), so that a query too large for the CN
 * fails with a {@link MemoryLimitException} naming its operator instead of an
 * {@link OutOfMemoryError} that would take the whole CN down. Queries reserve from it through their
 * {@link QueryMemory} and give everything back when they end.
 */
public final class MemoryPool {
    private static volatile MemoryPool shared;

    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();

    /** A pool of {@code capacity} bytes. */
    public MemoryPool(final long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a memory pool holds 1 byte or more, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** The process's pool, sized by {@code sluice.memory.pool} when first asked for. */
    public static MemoryPool shared() {
        MemoryPool pool = shared;
        if (pool == null) {
            synchronized (MemoryPool.class) {
                pool = shared;
                if (pool == null) {
                    pool = new MemoryPool(MemoryProperty.POOL.bytes(Runtime.getRuntime().maxMemory()));
                    shared = pool;
                }
            }
        }
        return pool;
    }

    /** Bytes the pool holds in all. */
    public long capacity() {
        return capacity;
    }

    /** Bytes the running queries hold now. */
    public long reserved() {
        return reserved.get();
    }

    /** Takes {@code bytes}, or returns false (taking nothing) when they would not fit. */
    boolean tryReserve(final long bytes) {
        long now;
        do {
            now = reserved.get();
            if (now + bytes > capacity) {
                return false;
            }
        } while (!reserved.compareAndSet(now, now + bytes));
        return true;
    }

    /** Gives back bytes a query reserved. */
    void release(final long bytes) {
        reserved.addAndGet(-bytes);
    }
}
