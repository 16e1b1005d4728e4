package io.sluice.dispatch.explain;

import io.sluice.engine.exec.Sink;
import io.sluice.engine.exec.Source;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.operator.DispatchMode;
import java.util.List;

/**
 * One exchange the compiler asked for, as EXPLAIN needs it.
 *
 * @param id       its number within the query, from 0 (the id of its stats)
 * @param mode     the dispatch mode the plan asked for
 * @param keys     the names of the columns it shuffles by; empty when it does not shuffle
 * @param function the buckets it shuffles into; null when it does not shuffle
 * @param sink     the end of the sending pipeline
 * @param source   the start of the receiving pipeline on this CN
 */
public record RecordedExchange(int id, DispatchMode mode, List<String> keys, BucketFunction function, Sink<?> sink,
                               Source source) {
    public RecordedExchange {
        keys = List.copyOf(keys);
    }
}
