package io.sluice.engine.exec;

import io.sluice.format.ColumnVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One query's memory on one CN: what its operators that hold rows (hash join builds, group tables, rows
 * kept to sort or window) have reserved, against the query's budget ({@code sluice.memory.query.max}, by default the
 * whole pool) and its CN's {@link MemoryPool}. An operator reserves before it keeps more rows; past the
 * budget, or when the pool cannot give more, the reservation throws a {@link MemoryLimitException} naming
 * the operator, what it and the query hold, and the setting to change. Reservations are counted in the
 * bytes of the values kept (a column's width per row, a string's bytes and offset), not of the Java
 * objects around them, and given back to the pool when the query ends ({@link #close()}).
 */
public final class QueryMemory implements AutoCloseable {
    /** Bytes reserved from the pool at a time, so that workers do not contend on it for every batch. */
    private static final long CHUNK = 1 << 20;

    private final MemoryPool pool;
    private final long budget;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong fromPool = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();
    private final List<Operator> operators = new ArrayList<>();
    private volatile boolean closed;

    private QueryMemory(final MemoryPool pool, final long budget) {
        this.pool = pool;
        this.budget = budget;
    }

    /** A query's memory in the process's shared pool, with the budget {@code sluice.memory.query.max} sets. */
    public static QueryMemory inSharedPool() {
        final MemoryPool pool = MemoryPool.shared();
        return new QueryMemory(pool, Math.min(pool.capacity(), MemoryProperty.QUERY_MAX.bytes(pool.capacity())));
    }

    /** A query's memory with a budget of its own in a pool. */
    public static QueryMemory of(final MemoryPool pool, final long budget) {
        if (budget <= 0) {
            throw new IllegalArgumentException("a query's memory budget is 1 byte or more, got " + budget);
        }
        return new QueryMemory(pool, budget);
    }

    /** Memory without limits, for runs that nobody accounts (a plan compiled only to be explained). */
    public static QueryMemory unbounded() {
        return new QueryMemory(null, Long.MAX_VALUE);
    }

    /** The accounting of one operator of the query, named as errors and statistics show it. */
    public synchronized Operator operator(final String name) {
        final Operator o = new Operator(name);
        operators.add(o);
        return o;
    }

    /** Bytes the query's operators hold now. */
    public long reserved() {
        return reserved.get();
    }

    /** The most bytes the query's operators held at once. */
    public long peak() {
        return peak.get();
    }

    /** The budget, in bytes; {@link Long#MAX_VALUE} when unbounded. */
    public long budget() {
        return budget;
    }

    /** Each operator's name and peak, in the order they were created. */
    public synchronized List<OperatorPeak> operatorPeaks() {
        final List<OperatorPeak> peaks = new ArrayList<>();
        for (final Operator o : operators) {
            peaks.add(new OperatorPeak(o.name, o.peak.get()));
        }
        return peaks;
    }

    /** An operator's name and the most bytes it held. */
    public record OperatorPeak(String operator, long peakBytes) {
    }

    private void reserve(final Operator operator, final long bytes) {
        final long now = reserved.addAndGet(bytes);
        if (now > budget) {
            reserved.addAndGet(-bytes);
            throw new MemoryLimitException(String.format(Locale.ROOT, "the query needs more than its memory budget"
                            + " of %s on this CN: %s holds %s and the query %s; raise the budget with -D%s=SIZE (now"
                            + " %s; a percentage is of the pool), run it on more CNs, or make the query smaller"
                            + " (operators do not spill to disk yet)", size(budget), operator.name, size(operator.reserved.get() + bytes),
                    size(now), MemoryProperty.QUERY_MAX.key(), MemoryProperty.QUERY_MAX.current()));
        }
        if (pool != null) {
            takeFromPool(operator, now, bytes);
        }
        peak.accumulateAndGet(now, Math::max);
    }

    private void takeFromPool(final Operator operator, final long now, final long bytes) {
        long have = fromPool.get();
        while (now > have) {
            final long more = Math.max(CHUNK, now - have);
            if (!pool.tryReserve(more)) {
                reserved.addAndGet(-bytes);
                throw new MemoryLimitException(String.format(Locale.ROOT, "this CN's memory pool of %s is taken: its"
                                + " running queries hold %s and %s of this query needs %s more; run the query again when"
                                + " fewer run, or raise the pool with -D%s=SIZE (now %s; a percentage is of the heap)", size(pool.capacity()),
                        size(pool.reserved()), operator.name, size(more), MemoryProperty.POOL.key(),
                        MemoryProperty.POOL.current()));
            }
            have = fromPool.addAndGet(more);
        }
    }

    /** Gives every byte the query took back to its pool. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (pool != null) {
            pool.release(fromPool.getAndSet(0));
        }
    }

    static String size(final long bytes) {
        if (bytes == Long.MAX_VALUE) {
            return "unbounded";
        }
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
        }
        return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }

    /** The bytes a batch's values take: a column's width per row, a string's bytes plus its offset. */
    public static long bytesOf(final Batch batch) {
        long bytes = 0;
        for (int c = 0; c < batch.columnCount(); c++) {
            bytes += bytesOf(batch.column(c), batch.rowCount());
        }
        return bytes;
    }

    private static long bytesOf(final ColumnVector v, final int rows) {
        if (v instanceof StringVector s) {
            return s.valueBytes() + 4L * rows;
        }
        return (long) v.type().kind().width() * rows;
    }

    /** What one operator of the query holds; its workers reserve through it concurrently. */
    public final class Operator {
        private final String name;
        private final AtomicLong reserved = new AtomicLong();
        private final AtomicLong peak = new AtomicLong();

        private Operator(final String name) {
            this.name = name;
        }

        /**
         * Reserves {@code bytes} more for rows the operator is about to keep.
         *
         * @throws MemoryLimitException when the query's budget or the CN's pool cannot give them
         */
        public void reserve(final long bytes) {
            if (bytes <= 0) {
                return;
            }
            QueryMemory.this.reserve(this, bytes);
            peak.accumulateAndGet(reserved.addAndGet(bytes), Math::max);
        }

        /** Reserves the bytes of a batch the operator keeps. */
        public void keep(final Batch batch) {
            reserve(bytesOf(batch));
        }

        /** The most bytes this operator held. */
        public long peak() {
            return peak.get();
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
