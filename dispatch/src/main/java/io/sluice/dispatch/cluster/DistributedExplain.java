package io.sluice.dispatch.cluster;

import io.sluice.dispatch.explain.ExplainBuilder;
import io.sluice.dispatch.explain.RecordedExchange;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PipelineCompiler;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import java.util.List;

/**
 * The distributed plan as the coordinator's CN compiled and ran it, as text: the model of
 * {@link ExplainBuilder} rendered with its operator table and its fragments (the text a query's
 * answer carries, {@link Session.Execution#explain()}).
 */
final class DistributedExplain {
    private DistributedExplain() {
    }

    static String render(final String name, final StrategyConfig config, final Topology topology, final Catalog tables,
            final Plan plan, final PipelineCompiler.Compiled compiled, final List<RecordedExchange> exchanges) {
        return ExplainBuilder.build(name, config.strategy().cliName(), topology, true, tables, plan.node(), compiled,
                exchanges).render();
    }
}
