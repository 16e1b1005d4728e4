package io.sluice.dispatch.explain;

import io.sluice.engine.plan.FragmentType;
import java.util.List;

/**
 * A fragment of the distributed plan (seed 002): the operators between two exchanges, run by the same
 * tasks. Fragment 0 ends in the result.
 *
 * @param id           its number: 0 for the root, then in pre-order of the operator table
 * @param type         how its input is spread over the CNs
 * @param output       where its rows go: the exchange its root sends into, or the result
 * @param operators    the ids of its operators, root first
 * @param pipelines    its pipelines, each as lines: the source, {@code -> } operators, {@code => } the sink
 * @param sources      the fragments it reads through exchanges
 */
public record ExplainFragment(int id, FragmentType type, String output, List<Integer> operators,
                              List<List<String>> pipelines, List<Integer> sources) {
    public ExplainFragment {
        operators = List.copyOf(operators);
        pipelines = pipelines.stream().map(List::copyOf).toList();
        sources = List.copyOf(sources);
    }
}
