package io.sluice.engine.exec;

import java.util.Arrays;

/**
 * What one pipeline did on one process (or, summed, on every CN): per step, the rows it pushed on and
 * the nanoseconds spent in it, counted once per batch. Step 0 is the source, step {@code i + 1} the
 * pipeline's operator {@code i}, the last step the sink; the sink pushes nothing on, so its rows are
 * the rows it took in.
 *
 * @param rows  rows out of each step (the sink's: rows into it)
 * @param nanos time in each step alone, without the steps it pushed to; the sink's includes its
 *              combine and finish
 */
public record PipelineCounters(long[] rows, long[] nanos) {
    public PipelineCounters {
        if (rows.length != nanos.length || rows.length < 2) {
            throw new IllegalArgumentException("a pipeline's counters need the same 2 or more steps for rows and"
                    + " nanos, got " + rows.length + " and " + nanos.length);
        }
        rows = rows.clone();
        nanos = nanos.clone();
    }

    /** Counters of a pipeline of {@code steps} steps that ran nothing. */
    public static PipelineCounters zero(final int steps) {
        return new PipelineCounters(new long[steps], new long[steps]);
    }

    /** Steps: source, operators, sink. */
    public int steps() {
        return rows.length;
    }

    /** Rows out of step {@code step}. */
    public long rows(final int step) {
        return rows[step];
    }

    /** Nanoseconds in step {@code step} alone. */
    public long nanos(final int step) {
        return nanos[step];
    }

    /** Both summed step by step (the same pipeline on two CNs). */
    public PipelineCounters plus(final PipelineCounters o) {
        if (o.steps() != steps()) {
            throw new IllegalArgumentException("cannot sum counters of a pipeline of " + steps() + " steps with one of "
                    + o.steps() + ": the CNs compiled different plans");
        }
        final long[] r = rows.clone();
        final long[] n = nanos.clone();
        for (int s = 0; s < r.length; s++) {
            r[s] += o.rows[s];
            n[s] += o.nanos[s];
        }
        return new PipelineCounters(r, n);
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof PipelineCounters c && Arrays.equals(rows, c.rows) && Arrays.equals(nanos, c.nanos);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(rows) + Arrays.hashCode(nanos);
    }

    @Override
    public String toString() {
        return "rows " + Arrays.toString(rows) + " nanos " + Arrays.toString(nanos);
    }
}
