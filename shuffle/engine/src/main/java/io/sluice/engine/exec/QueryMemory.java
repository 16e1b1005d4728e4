package io.sluice.engine.exec;

import io.sluice.engine.spill.QuerySpill;
import io.sluice.engine.spill.SpillRun;
import io.sluice.engine.spill.SpillSpace;
import io.sluice.engine.spill.SpillWriter;
import io.sluice.format.ColumnVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
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
 *
 * <p>With spilling on ({@code sluice.spill}), the query also owns a {@link QuerySpill}: an operator that can
 * go on on disk asks with {@link Operator#tryReserve}, and when refused writes rows to spill files and
 * {@link Operator#release releases} them. {@link #close()} removes the query's spill files too.
 *
 * <p>What a spilling operator's workers hold is revocable ({@link RevocableMemory}): a reservation that the budget or
 * the pool would refuse first asks those holders to spill, largest first, on the requesting thread, and is refused
 * only when what they gave back is not enough. A holder growing asks nobody (refused, it spills its own rows), so
 * two spilling operators never take turns spilling each other.
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
    /** The workers' shares of spilling operators that hold revocable memory now. */
    private final List<RevocableMemory> revocables = new ArrayList<>();
    /** The query's spill files; null when spilling is off. */
    private final QuerySpill spill;
    private volatile boolean closed;

    private QueryMemory(final MemoryPool pool, final long budget, final QuerySpill spill) {
        this.pool = pool;
        this.budget = budget;
        this.spill = spill;
    }

    /**
     * A query's memory in the process's shared pool, with the budget {@code sluice.memory.query.max} sets,
     * spilling under {@code sluice.spill.dir} unless {@code sluice.spill} is off.
     */
    public static QueryMemory inSharedPool() {
        final MemoryPool pool = MemoryPool.shared();
        final long budget = Math.min(pool.capacity(), MemoryProperty.QUERY_MAX.bytes(pool.capacity()));
        return new QueryMemory(pool, budget,
                MemoryProperty.SPILL.on() ? SpillSpace.under(MemoryProperty.SPILL_DIR.path()).query() : null);
    }

    /** A query's memory with a budget of its own in a pool, that does not spill. */
    public static QueryMemory of(final MemoryPool pool, final long budget) {
        return of(pool, budget, null);
    }

    /** A query's memory with a budget of its own in a pool, spilling to {@code spill} (null: not at all). */
    public static QueryMemory of(final MemoryPool pool, final long budget, final QuerySpill spill) {
        if (budget <= 0) {
            throw new IllegalArgumentException("a query's memory budget is 1 byte or more, got " + budget);
        }
        return new QueryMemory(pool, budget, spill);
    }

    /** Memory without limits, for runs that nobody accounts (a plan compiled only to be explained). */
    public static QueryMemory unbounded() {
        return new QueryMemory(null, Long.MAX_VALUE, null);
    }

    /** Whether the query's operators may go on on disk when refused memory. */
    public boolean spills() {
        return spill != null;
    }

    /** Bytes the query wrote to spill files. */
    public long spilledBytes() {
        return spill == null ? 0 : spill.bytes();
    }

    /** Spill files the query made. */
    public long spillFiles() {
        return spill == null ? 0 : spill.files();
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

    /** Each operator's name, peak and bytes spilled, in the order they were created. */
    public synchronized List<OperatorPeak> operatorPeaks() {
        final List<OperatorPeak> peaks = new ArrayList<>();
        for (final Operator o : operators) {
            peaks.add(new OperatorPeak(o.name, o.peak.get(), o.spilledBytes.get()));
        }
        return peaks;
    }

    /** An operator's name, the most bytes it held, and the bytes it wrote to spill files. */
    public record OperatorPeak(String operator, long peakBytes, long spilledBytes) {
    }

    /**
     * Reserves, asking the holders of revocable memory to spill first when {@code mayRevoke} and the budget or pool
     * refuse; else returns false (or throws the named error, when {@code mayRefuse} is false).
     */
    private boolean reserve(final Operator operator, final long bytes, final boolean mayRefuse,
                            final boolean mayRevoke) {
        if (take(operator, bytes, true)) {
            return true;
        }
        if (mayRevoke && revokeFor(operator, bytes)) {
            return true;
        }
        // Refused; a last try throws the named error, unless another worker gave memory back since.
        return !mayRefuse && take(operator, bytes, false);
    }

    /**
     * Asks the holders of revocable memory to spill, largest first, until {@code bytes} can be taken; returns whether
     * they were. A holder another thread is inside is passed by: it is changing, and waiting for it could wait for
     * this thread.
     */
    private boolean revokeFor(final Operator operator, final long bytes) {
        final RevocableMemory[] holders;
        synchronized (revocables) {
            holders = revocables.toArray(new RevocableMemory[0]);
        }
        final long[] held = new long[holders.length];
        for (int i = 0; i < holders.length; i++) {
            held[i] = holders[i].held();
        }
        final Integer[] order = new Integer[holders.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        // Sorted by a snapshot: what holders hold changes while they are sorted.
        Arrays.sort(order, (a, b) -> Long.compare(held[b], held[a]));
        for (final int i : order) {
            if (held[i] > 0 && holders[i].tryRevoke() > 0 && take(operator, bytes, true)) {
                return true;
            }
        }
        return false;
    }

    void register(final RevocableMemory holder) {
        synchronized (revocables) {
            revocables.add(holder);
        }
    }

    void unregister(final RevocableMemory holder) {
        synchronized (revocables) {
            revocables.remove(holder);
        }
    }

    /** Takes the bytes from the budget and the pool, or returns false (or throws, when {@code mayRefuse} is false). */
    private boolean take(final Operator operator, final long bytes, final boolean mayRefuse) {
        final long now = reserved.addAndGet(bytes);
        if (now > budget) {
            reserved.addAndGet(-bytes);
            if (mayRefuse) {
                return false;
            }
            throw new MemoryLimitException(String.format(Locale.ROOT, "the query needs more than its memory budget"
                            + " of %s on this CN: %s holds %s and the query %s; raise the budget with -D%s=SIZE (now"
                            + " %s; a percentage is of the pool), run it on more CNs, or make the query smaller (%s)",
                    size(budget), operator.name, size(operator.reserved.get() + bytes), size(now),
                    MemoryProperty.QUERY_MAX.key(), MemoryProperty.QUERY_MAX.current(), spill == null
                            ? "spilling to disk is off: turn it on with -D" + MemoryProperty.SPILL.key() + "=on"
                            : "this operator does not spill to disk"));
        }
        if (pool != null && !takeFromPool(operator, now, bytes, mayRefuse)) {
            return false;
        }
        peak.accumulateAndGet(now, Math::max);
        return true;
    }

    private boolean takeFromPool(final Operator operator, final long now, final long bytes, final boolean mayRefuse) {
        long have = fromPool.get();
        while (now > have) {
            final long more = Math.max(CHUNK, now - have);
            if (!pool.tryReserve(more)) {
                reserved.addAndGet(-bytes);
                if (mayRefuse) {
                    return false;
                }
                throw new MemoryLimitException(String.format(Locale.ROOT, "this CN's memory pool of %s is taken: its"
                                + " running queries hold %s and %s of this query needs %s more; run the query again when"
                                + " fewer run, or raise the pool with -D%s=SIZE (now %s; a percentage is of the heap)", size(pool.capacity()),
                        size(pool.reserved()), operator.name, size(more), MemoryProperty.POOL.key(),
                        MemoryProperty.POOL.current()));
            }
            have = fromPool.addAndGet(more);
        }
        return true;
    }

    /** Gives every byte the query took back to its pool and removes its spill files. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (pool != null) {
                pool.release(fromPool.getAndSet(0));
            }
        } finally {
            if (spill != null) {
                spill.close();
            }
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
        private final AtomicLong spilledBytes = new AtomicLong();

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
            QueryMemory.this.reserve(this, bytes, false, true);
            peak.accumulateAndGet(reserved.addAndGet(bytes), Math::max);
        }

        /**
         * Reserves {@code bytes} more if the query's budget and the pool can give them; else takes nothing
         * and returns false, and the operator spills (when {@link #spills()}) or calls {@link #reserve} to
         * fail with the named error.
         */
        public boolean tryReserve(final long bytes) {
            return tryReserve(bytes, true);
        }

        /** {@link #tryReserve} of a holder of revocable memory growing: refused, it spills its own rows. */
        boolean tryReserveAskingNobody(final long bytes) {
            return tryReserve(bytes, false);
        }

        private boolean tryReserve(final long bytes, final boolean mayRevoke) {
            if (bytes <= 0) {
                return true;
            }
            if (!QueryMemory.this.reserve(this, bytes, true, mayRevoke)) {
                return false;
            }
            peak.accumulateAndGet(reserved.addAndGet(bytes), Math::max);
            return true;
        }

        /**
         * Revocable memory of one worker's share of this operator, which other reservations of the query may ask
         * {@code holder} to give back by spilling; only when {@link #spills()}.
         */
        public RevocableMemory revocable(final RevocableMemory.Holder holder) {
            if (spill == null) {
                throw new IllegalStateException(name + " cannot hold revocable memory: spilling is off for this query");
            }
            final RevocableMemory r = new RevocableMemory(this, holder);
            register(r);
            return r;
        }

        void unregister(final RevocableMemory holder) {
            QueryMemory.this.unregister(holder);
        }

        /** Gives back {@code bytes} this operator reserved and no longer holds (rows it wrote to disk). */
        public void release(final long bytes) {
            if (bytes <= 0) {
                return;
            }
            reserved.addAndGet(-bytes);
            QueryMemory.this.reserved.addAndGet(-bytes);
        }

        /** Whether this operator may write rows to disk when refused memory. */
        public boolean spills() {
            return spill != null;
        }

        /** A new spill file for this operator's rows; only when {@link #spills()}. */
        public SpillWriter spillWriter() {
            if (spill == null) {
                throw new IllegalStateException(name + " cannot spill: spilling is off for this query");
            }
            return spill.writer(name);
        }

        /** Counts a spill file this operator finished, and returns it. */
        public SpillRun spilled(final SpillRun run) {
            spilledBytes.addAndGet(run.bytes());
            return run;
        }

        /** Bytes this operator wrote to spill files. */
        public long spilledBytes() {
            return spilledBytes.get();
        }

        /** Bytes the whole query holds now. */
        long queryReserved() {
            return QueryMemory.this.reserved.get();
        }

        /** The query's budget. */
        long queryBudget() {
            return budget;
        }

        /** Bytes this operator holds now. */
        public long reserved() {
            return reserved.get();
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
