package io.sluice.engine.plan;

import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.operator.DispatchMode;
import java.util.List;

/**
 * An exchange the {@link PhysicalPlanner} placed on one edge of a decided plan ({@link DetermineExchanges}): its
 * id, which every CN gives the exchange's senders and receivers so that they pair up, the edge, how it routes rows
 * and by what. {@link PipelineCompiler} cuts a pipeline wherever the plan has one and nowhere else.
 *
 * @param id         the exchange's id within the query: 0 up, in the order of the edges in {@link PlanWalk#preOrder}
 * @param position   the position, in {@link PlanWalk#preOrder} of the decided tree, of the node whose input it feeds
 * @param input      which input of that node it feeds: 0 the only input or a join's probe side, 1 a join's build
 *                   side; {@link #RESULT} for the query's result above the root
 * @param mode       how batches are routed
 * @param fragment   how the receiving fragment's rows are spread over the CNs
 * @param keys       the columns it shuffles by, as the sending pipeline names them; empty unless the mode reads
 *                   {@code shuffleIdx}
 * @param boundaries the range buckets of a range shuffle; null for a hash shuffle over every bucket of the topology,
 *                   and for a mode that does not shuffle
 */
public record DecidedExchange(int id, int position, int input, DispatchMode mode, FragmentType fragment,
                              List<String> keys, RangeBoundaries boundaries) {
    /** The {@link #input} of the exchange that gathers the query's result, above the root. */
    public static final int RESULT = -1;

    public DecidedExchange {
        keys = List.copyOf(keys);
        if (id < 0 || position < 0 || input < RESULT) {
            throw new IllegalArgumentException("exchange " + id + " at node " + position + " input " + input
                    + ": ids and positions count from 0, inputs from " + RESULT + " (the result)");
        }
        if (input == RESULT && (position != 0 || mode != DispatchMode.GATHER)) {
            throw new IllegalArgumentException("exchange " + id + " of the result is a " + mode + " at node " + position
                    + ": the result is gathered above the root, node 0");
        }
        if (mode.readsShuffleIdx() == keys.isEmpty() || boundaries != null && !mode.readsShuffleIdx()) {
            throw new IllegalArgumentException("exchange " + id + " is a " + mode + " with keys " + keys
                    + (boundaries == null ? "" : " and range boundaries")
                    + ": a shuffle has keys, and only a shuffle has keys or boundaries");
        }
        if (boundaries != null && keys.size() != 1) {
            throw new IllegalArgumentException("exchange " + id + " is a range shuffle on " + keys
                    + ": a range shuffle has one key");
        }
    }

    /** Whether it routes rows by a bucket function on {@link #keys}. */
    public boolean shuffles() {
        return mode.readsShuffleIdx();
    }

    @Override
    public String toString() {
        return "exchange " + id + " (" + mode + (keys.isEmpty() ? "" : " " + keys)
                + (boundaries == null ? shuffles() ? " hash" : "" : " range") + ") into "
                + (input == RESULT ? "the result" : "input " + input + " of node " + position);
    }
}
