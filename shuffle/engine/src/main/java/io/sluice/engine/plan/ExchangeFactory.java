package io.sluice.engine.plan;

import io.sluice.engine.exec.RuntimeFilterRouter;
import io.sluice.engine.exec.Sink;
import io.sluice.engine.exec.Source;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.BucketFunction;

/**
 * Where {@link PipelineCompiler} gets the exchanges that move rows between pipelines: in one
 * process a local shuffle ({@link LocalExchanges}), in a cluster a dispatch over every CN. The
 * compiler asks for one per {@link DecidedExchange} of the plan, which carries the id every CN
 * gives it, whatever order a CN compiles its exchanges in.
 */
public interface ExchangeFactory {
    /**
     * Whether rows live on several CNs: scans read a share of the blocks on each CN, and results,
     * sorts and merge groups are gathered at the coordinator. False: one process reads everything.
     */
    boolean distributed();

    /**
     * Ends a pipeline in an exchange and returns its two ends on this CN.
     *
     * @param exchange   the exchange as the plan decided it: its id, and how batches are routed
     *                   ({@code TO_OWNER}, {@code LOCAL_ONLY} and {@code ALL_CN} shuffle by
     *                   {@code function}, {@code BROADCAST} gives every CN all rows, {@code GATHER}
     *                   brings all rows to the coordinator)
     * @param keyColumns the columns {@code function} reads; null when the mode does not shuffle
     * @param function   buckets over the whole topology; null when the mode does not shuffle
     * @return the sink that ends the sending pipeline, and the source of the rows this CN
     *         receives: one morsel per local core for a shuffle (batches tagged with the core),
     *         one per batch otherwise
     */
    Ends exchange(DecidedExchange exchange, RowType rowType, int[] keyColumns, BucketFunction function);

    /**
     * Where join builds send their partial runtime filters: by default straight to this process's probe
     * scans; a cluster sends those made of every CN's partials through its coordinator.
     */
    default RuntimeFilterRouter runtimeFilterRouter() {
        return RuntimeFilterRouter.LOCAL;
    }

    /**
     * The two ends of one exchange on one CN.
     *
     * @param streams whether the receiving pipeline consumes batches as they arrive, running while the
     *                sending pipeline runs (a cluster's exchange, bounded by credit); false when it reads
     *                them only after the sending pipeline finished (a local shuffle's materialized buckets)
     */
    record Ends(Sink<?> sink, Source source, boolean streams) {
    }
}
