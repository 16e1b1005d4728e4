package io.sluice.perf.bench;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Strategy;

/**
 * What the runs of one contestant of a (topology, query) pair gave so far: Sluice under one cluster
 * kind, strategy and runtime filter mode, or DuckDB ({@code session}, {@code strategy} and
 * {@code mode} null). The runner takes every
 * contestant's next run in one round, in an order that turns by one place each round, so no
 * contestant always runs right after the same other one or always first; this collects each one's
 * timed runs, its first wrong answer, its error, its last execution and its peak heap.
 */
final class CellRuns {
    final ClusterKind cluster;
    final Session session;
    final Strategy strategy;
    final RuntimeFilterMode mode;
    final String label;
    final long[] nanos;
    private int timed;
    String mismatch;
    String error;
    Session.Execution last;
    long peakHeapBytes = -1;

    CellRuns(final ClusterKind cluster, final Session session, final Strategy strategy, final RuntimeFilterMode mode,
             final String label, final int timedRuns) {
        this.cluster = cluster;
        this.session = session;
        this.strategy = strategy;
        this.mode = mode;
        this.label = label;
        this.nanos = new long[timedRuns];
    }

    /** Whether this is DuckDB's row. */
    boolean isDuckDb() {
        return session == null;
    }

    /** Whether its runs go on: it has not failed. */
    boolean running() {
        return error == null;
    }

    /** Records one timed run. */
    void timed(final long elapsedNanos) {
        nanos[timed++] = elapsedNanos;
    }

    /** Records the heap one timed run added at its highest. */
    void heap(final long aboveBaselineBytes) {
        peakHeapBytes = Math.max(peakHeapBytes, aboveBaselineBytes);
    }

    /** The timings of its timed runs; null when it failed before finishing them. */
    Timings timings() {
        return error != null || timed < nanos.length ? null : Timings.ofNanos(nanos);
    }
}
