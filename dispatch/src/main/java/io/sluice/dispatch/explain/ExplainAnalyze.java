package io.sluice.dispatch.explain;

import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.PipelineCounters;
import java.util.ArrayList;
import java.util.List;

/**
 * EXPLAIN ANALYZE: what a run did, added to the plan's operators: rows out and time from the
 * pipelines' counters (every CN's summed), and for each exchange the rows and bytes its senders
 * moved across and inside CNs, exactly as the query's stats ({@code --stats-json}) report them.
 */
public final class ExplainAnalyze {
    private ExplainAnalyze() {
    }

    /**
     * The plan with actuals.
     *
     * @param counters  each pipeline's counters, in run order, summed over the CNs
     * @param exchanges each exchange's stats (null on one process, where no exchange crosses CNs)
     */
    public static ExplainPlan apply(final ExplainPlan plan, final List<PipelineCounters> counters,
                                    final List<QueryStats.ExchangeStats> exchanges) {
        if (counters.size() != plan.pipelineSteps().size()) {
            throw new IllegalStateException("the run of " + plan.query() + " counted " + counters.size()
                    + " pipelines, the plan explained has " + plan.pipelineSteps().size()
                    + ": the CNs compiled another plan than the one explained");
        }
        for (int p = 0; p < counters.size(); p++) {
            if (counters.get(p).steps() != plan.pipelineSteps().get(p)) {
                throw new IllegalStateException("pipeline " + p + " of " + plan.query() + " ran " + counters.get(p).steps()
                        + " steps, the plan explained has " + plan.pipelineSteps().get(p));
            }
        }
        final List<ExplainOperator> out = new ArrayList<>();
        for (final ExplainOperator o : plan.operators()) {
            final ExplainOperator.Counted c = o.counted();
            long rows = -1;
            long nanos = 0;
            if (c != null) {
                rows = counters.get(c.rowsPipeline()).rows(c.rowsStep());
                for (final int[] step : c.timeSteps()) {
                    nanos += counters.get(step[0]).nanos(step[1]);
                }
            }
            long rowsRemote = -1;
            long bytesRemote = -1;
            long rowsLocal = -1;
            long bytesLocal = -1;
            if (o.exchange() != null && exchanges != null) {
                for (final QueryStats.ExchangeStats e : exchanges) {
                    if (e.id() == o.exchange().id()) {
                        rowsRemote = e.rowsRemote();
                        bytesRemote = e.bytesRemote();
                        rowsLocal = e.rowsLocal();
                        bytesLocal = e.bytesLocal();
                    }
                }
            }
            out.add(o.withActual(new ExplainOperator.Actual(rows, nanos, rowsRemote, bytesRemote, rowsLocal,
                    bytesLocal)));
        }
        return new ExplainPlan(plan.query(), plan.topology(), plan.strategy(), plan.distributed(), plan.decisions(),
                plan.runtimeFilters(), out, plan.fragments(), plan.pipelineSteps(), true);
    }
}
