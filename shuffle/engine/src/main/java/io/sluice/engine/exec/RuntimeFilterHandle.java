package io.sluice.engine.exec;

import io.sluice.engine.filter.FilterKind;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.filter.RuntimeFilter;
import io.sluice.engine.filter.RuntimeFilterConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One runtime filter of a query on one CN, between the join build that makes it and the probe scans
 * that apply it: it is delivered once ({@link #deliver}), probe scans wait for it a bounded time
 * ({@link #await}) and read it on every block after, so a late filter applies from its arrival on. It
 * counts what it did, and turns itself off when the first rows show it rejects too few.
 */
public final class RuntimeFilterHandle {
    private static final long WAIT_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private final int id;
    private final List<String> build;
    private final List<String> probe;
    private final FilterScope scope;
    private final int bucketCount;
    private final RuntimeFilterConfig config;
    private final boolean fromEveryCn;
    private final CountDownLatch arrival = new CountDownLatch(1);
    private volatile RuntimeFilter[] filters;
    private volatile List<FilterKind> kinds = List.of();
    private volatile boolean waitedOut;
    private volatile boolean late;
    private volatile boolean disabled;
    private volatile boolean probed;
    private volatile boolean dropped;
    private final AtomicLong buildRows = new AtomicLong();
    private final AtomicLong rowsIn = new AtomicLong();
    private final AtomicLong rowsOut = new AtomicLong();
    private final AtomicLong blocksSkipped = new AtomicLong();
    private final AtomicLong waitNanos = new AtomicLong();

    /**
     * @param bucketCount buckets of the whole topology for a {@link FilterScope#PER_BUCKET} filter, else 1
     * @param fromEveryCn whether, in a cluster, its probe scans need the partials of every CN's build: a global
     *                    filter, or a per-bucket one whose scan reads rows of every bucket
     */
    public RuntimeFilterHandle(final int id, final List<String> build, final List<String> probe,
                               final FilterScope scope, final int bucketCount, final RuntimeFilterConfig config,
                               final boolean fromEveryCn) {
        this.id = id;
        this.build = List.copyOf(build);
        this.probe = List.copyOf(probe);
        this.scope = scope;
        this.bucketCount = bucketCount;
        this.config = config;
        this.fromEveryCn = fromEveryCn;
    }

    /** Whether, in a cluster, the filter is made of the partials of every CN (see the constructor). */
    public boolean fromEveryCn() {
        return fromEveryCn;
    }

    public int id() {
        return id;
    }

    public FilterScope scope() {
        return scope;
    }

    /** How filters are finished, waited for and turned off. */
    public RuntimeFilterConfig config() {
        return config;
    }

    /** Counts build rows this CN's build added. */
    void addBuildRows(final long rows) {
        buildRows.addAndGet(rows);
    }

    /**
     * The filter arrives: a global or local filter is the merge of every partial, a per-bucket filter
     * one filter per bucket (a bucket without a partial passes every row). Later deliveries are ignored.
     */
    public void deliver(final FilterPartial[] partials) {
        if (filters != null) {
            return;
        }
        final RuntimeFilter[] finished;
        if (scope == FilterScope.PER_BUCKET) {
            if (partials.length != bucketCount) {
                throw new IllegalArgumentException("runtime filter " + id + " is per bucket of " + bucketCount
                        + " buckets but got " + partials.length + " partials");
            }
            finished = new RuntimeFilter[bucketCount];
            for (int b = 0; b < bucketCount; b++) {
                finished[b] = partials[b] == null ? null : partials[b].finish(config);
            }
        } else {
            final FilterPartial merged = FilterPartial.mergeAll(null, partials);
            if (merged == null) {
                throw new IllegalArgumentException("runtime filter " + id + " got no partial filter");
            }
            finished = new RuntimeFilter[] {merged.finish(config)};
        }
        final List<FilterKind> union = new ArrayList<>();
        for (final RuntimeFilter f : finished) {
            if (f != null) {
                for (final FilterKind k : f.kinds()) {
                    if (!union.contains(k)) {
                        union.add(k);
                    }
                }
            }
        }
        union.sort(null);
        kinds = List.copyOf(union);
        late = waitedOut;
        filters = finished;
        arrival.countDown();
    }

    /**
     * The filter will not come (its partials were too large to gather): probe scans stop waiting for it and
     * read every row. Ignored once it arrived.
     */
    public void drop() {
        if (filters == null) {
            dropped = true;
            arrival.countDown();
        }
    }

    /** The filter by bucket (one entry unless per bucket), or null before it arrived or once it turned itself off. */
    RuntimeFilter[] filters() {
        return disabled ? null : filters;
    }

    /** Whether the filter has arrived. */
    public boolean arrived() {
        return filters != null;
    }

    /**
     * Waits for the filter up to the configured time, checking {@code cancellation} as it waits; records
     * the wait. A probe scan calls it before its first block.
     */
    void await(final Cancellation cancellation) {
        probed = true;
        if (filters != null || dropped) {
            return;
        }
        final long start = System.nanoTime();
        final long deadline = start + TimeUnit.MILLISECONDS.toNanos(config.waitMillis());
        try {
            while (filters == null && !dropped) {
                cancellation.check();
                final long left = deadline - System.nanoTime();
                if (left <= 0) {
                    waitedOut = true;
                    break;
                }
                arrival.await(Math.min(left, WAIT_SLICE_NS), TimeUnit.NANOSECONDS);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryCancelledException(new IllegalStateException("interrupted while waiting for runtime filter "
                    + id, e));
        } finally {
            waitNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
        }
    }

    /** Counts a probe block skipped by its zonemap. */
    void skipped() {
        blocksSkipped.incrementAndGet();
    }

    /**
     * Counts {@code in} probe rows tested and {@code out} passed; once the first sample is complete, a
     * filter that rejected less than the configured share passes every row from then on.
     */
    void counted(final long in, final long out) {
        final long seenBefore = rowsIn.getAndAdd(in);
        final long passed = rowsOut.addAndGet(out);
        final long seen = seenBefore + in;
        if (seenBefore < config.sampleRows() && seen >= config.sampleRows()
                && seen - passed < config.minRejection() * seen) {
            disabled = true;
        }
    }

    /** What the filter did on this CN so far. */
    public RuntimeFilterStats stats() {
        final RuntimeFilterState state;
        if (disabled) {
            state = RuntimeFilterState.DISABLED;
        } else if (filters == null && dropped) {
            state = RuntimeFilterState.DROPPED;
        } else if (filters == null) {
            state = probed ? RuntimeFilterState.NOT_ARRIVED : RuntimeFilterState.PENDING;
        } else {
            state = late ? RuntimeFilterState.LATE : RuntimeFilterState.APPLIED;
        }
        return new RuntimeFilterStats(id, build, probe, kinds, scope, buildRows.get(), rowsIn.get(), rowsOut.get(),
                blocksSkipped.get(), TimeUnit.NANOSECONDS.toMillis(waitNanos.get()), state);
    }

    @Override
    public String toString() {
        return "runtime filter " + id + " " + build + " -> " + probe + " (" + scope.label() + ")";
    }
}
