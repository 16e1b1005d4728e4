package io.sluice.engine.exec;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects {@link PipelineCounters} while {@link PipelineExecutor} runs a query's pipelines: each
 * worker counts into arrays of its own (a row count and two clock reads per batch and step, never
 * per row) and adds them here once, when it runs out of morsels. For EXPLAIN ANALYZE and the
 * per-operator numbers of a distributed query's stats.
 */
public final class PipelineProfile {
    private final Map<Pipeline, long[][]> counted = new IdentityHashMap<>();

    /** Adds one worker's (or one finish's) rows and nanos of a pipeline. */
    synchronized void add(final Pipeline pipeline, final long[] rows, final long[] nanos) {
        final long[][] sums = counted.computeIfAbsent(pipeline, p -> new long[][] {new long[rows.length],
                new long[rows.length]});
        for (int s = 0; s < rows.length; s++) {
            sums[0][s] += rows[s];
            sums[1][s] += nanos[s];
        }
    }

    /** The counters of each pipeline, in the order given (zero for one that did not run). */
    public synchronized List<PipelineCounters> counters(final List<Pipeline> pipelines) {
        final List<PipelineCounters> out = new ArrayList<>(pipelines.size());
        for (final Pipeline p : pipelines) {
            final long[][] sums = counted.get(p);
            out.add(sums == null ? PipelineCounters.zero(p.operators().size() + 2)
                    : new PipelineCounters(sums[0], sums[1]));
        }
        return out;
    }
}
