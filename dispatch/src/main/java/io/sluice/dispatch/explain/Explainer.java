package io.sluice.dispatch.explain;

import io.sluice.engine.exec.PipelineExecutor;
import io.sluice.engine.exec.PipelineProfile;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.LocalExchanges;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PhysicalPlanner;
import io.sluice.engine.plan.PipelineCompiler;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;

/**
 * EXPLAIN's entry points for a client: the plan of a query compiled for the coordinator's CN, here and
 * without running it (every CN compiles the same plan the same way, so this is the plan they run), and
 * EXPLAIN ANALYZE of a query on this process's cores.
 */
public final class Explainer {
    private Explainer() {
    }

    /**
     * The plan of a query.
     *
     * @param distributed true for a cluster of {@code topology} (nothing starts on it), false for one
     *                    process with {@code topology.coresPerCn()} cores
     */
    public static ExplainPlan plan(final String name, final Plan plan, final StrategyConfig config,
                                   final Topology topology, final Catalog tables, final boolean distributed) {
        final RecordingExchanges exchanges = new RecordingExchanges(distributed ? new PlanningExchanges()
                : new LocalExchanges(config.shuffle()));
        final Topology shape = distributed ? topology : new Topology(1, topology.coresPerCn());
        final PipelineCompiler.Compiled compiled = new PipelineCompiler(tables, config, shape,
                PipelineCompiler.COORDINATOR, exchanges).compile(PhysicalPlanner.plan(plan, config, tables, shape,
                distributed));
        return ExplainBuilder.build(name, config.strategy().cliName(), topology, distributed, tables, plan.node(),
                compiled, exchanges.recorded());
    }

    /** A query's rows and its plan with what the run did. */
    public record Analyzed(QueryResult result, ExplainPlan plan) {
    }

    /** Runs a query on {@code cores} threads of this process and explains it with what each operator did. */
    public static Analyzed analyzeLocally(final String name, final Plan plan, final StrategyConfig config,
                                          final int cores, final Catalog tables) {
        final RecordingExchanges exchanges = new RecordingExchanges(new LocalExchanges(config.shuffle()));
        final Topology topology = new Topology(1, cores);
        final PipelineCompiler.Compiled compiled = new PipelineCompiler(tables, config, topology,
                PipelineCompiler.COORDINATOR, exchanges).compile(PhysicalPlanner.plan(plan, config, tables, topology,
                false));
        final PipelineProfile profile = new PipelineProfile();
        try (PipelineExecutor executor = new PipelineExecutor(cores)) {
            executor.run(compiled.pipelines(), io.sluice.engine.exec.Cancellation.never(), profile);
        }
        final ExplainPlan explained = ExplainBuilder.build(name, config.strategy().cliName(), topology, false, tables,
                plan.node(), compiled, exchanges.recorded());
        return new Analyzed(compiled.result().result(), ExplainAnalyze.apply(explained,
                profile.counters(compiled.pipelines()), null));
    }
}
