package io.sluice.dispatch.explain;

import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.RuntimeFilterPlan;
import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * A query's distributed plan as EXPLAIN shows it, built once ({@link ExplainBuilder}) and printed by
 * {@link OperatorTable} and {@link FragmentView}: the decisions of the planner rules, the runtime
 * filters, the operators in pre-order and the fragments.
 *
 * @param query          the query's name
 * @param topology       the CNs x cores it is planned for
 * @param strategy       the strategy asked for
 * @param distributed    whether it runs on a cluster runtime (else on one process's cores)
 * @param decisions      each join's and group-by's distribution and why
 * @param runtimeFilters the runtime filters
 * @param operators      the operator table's rows, by id
 * @param fragments      the fragments, by id
 * @param pipelineSteps  the steps (source, operators, sink) of each pipeline, in run order
 * @param analyzed       whether the operators carry what a run did
 */
public record ExplainPlan(String query, Topology topology, String strategy, boolean distributed,
                          List<Decision> decisions, List<RuntimeFilterPlan> runtimeFilters,
                          List<ExplainOperator> operators, List<ExplainFragment> fragments, List<Integer> pipelineSteps,
                          boolean analyzed) {
    public ExplainPlan {
        decisions = List.copyOf(decisions);
        runtimeFilters = List.copyOf(runtimeFilters);
        operators = List.copyOf(operators);
        fragments = List.copyOf(fragments);
        pipelineSteps = List.copyOf(pipelineSteps);
    }

    /** The root operator. */
    public ExplainOperator root() {
        return operators.get(0);
    }

    /** The operators that are an exchange's EXCHANGE OUT, in exchange order. */
    public List<ExplainOperator> exchangeOuts() {
        final List<ExplainOperator> out = new ArrayList<>();
        for (final ExplainOperator o : operators) {
            if (o.exchange() != null && o.exchange().out()) {
                out.add(o);
            }
        }
        out.sort(java.util.Comparator.comparingInt(o -> o.exchange().id()));
        return out;
    }

    /** The header, the decisions, the runtime filters, the operator table and the fragments, as printed. */
    public String render() {
        final StringBuilder sb = new StringBuilder();
        sb.append(distributed ? "Distributed plan of " : "Plan of ").append(query).append(" on ").append(topology)
                .append(" (").append(topology.bucketCount()).append(" buckets), strategy ").append(strategy)
                .append(analyzed ? ", analyzed" : "").append('\n');
        for (final Decision d : decisions) {
            sb.append("  ").append(d).append('\n');
        }
        if (!runtimeFilters.isEmpty()) {
            sb.append("Runtime filters (build key -> probe scan column, kinds, scope, where applied):\n");
            for (final RuntimeFilterPlan f : runtimeFilters) {
                sb.append("  ").append(f).append('\n');
            }
        }
        sb.append(OperatorTable.render(this));
        sb.append(FragmentView.render(this));
        return sb.toString();
    }
}
