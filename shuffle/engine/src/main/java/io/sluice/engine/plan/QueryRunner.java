package io.sluice.engine.plan;

import io.sluice.engine.exec.PipelineExecutor;
import io.sluice.engine.exec.QueryMemory;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.exec.RuntimeFilterRouter;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import java.util.List;

/**
 * Runs plans over the tables of a catalog on a pool of worker threads: the entry point of a library
 * user. The runner does not own the catalog.
 */
public final class QueryRunner implements AutoCloseable {
    private final Catalog tables;
    private final PipelineExecutor executor;
    private final StrategyConfig config;
    private final RuntimeFilterRouter router;

    /** A runner over {@code tables} with {@code cores} worker threads and the default strategy config. */
    public QueryRunner(final Catalog tables, final int cores) {
        this(tables, cores, StrategyConfig.defaults());
    }

    /** A runner over {@code tables} with {@code cores} worker threads, distributing joins and group-bys by {@code config}. */
    public QueryRunner(final Catalog tables, final int cores, final StrategyConfig config) {
        this(tables, cores, config, RuntimeFilterRouter.LOCAL);
    }

    /**
     * As {@link #QueryRunner(Catalog, int, StrategyConfig)}, join builds handing their runtime filters to
     * {@code router} (by default delivered at once; a test may deliver them late or never).
     */
    public QueryRunner(final Catalog tables, final int cores, final StrategyConfig config,
                       final RuntimeFilterRouter router) {
        this.tables = tables;
        this.executor = new PipelineExecutor(cores);
        this.config = config;
        this.router = router;
    }

    /**
     * A query's rows, the strategy each of its joins and group-bys ran with, its runtime filters as
     * planned and what each did.
     */
    public record Execution(QueryResult result, List<Decision> decisions, List<RuntimeFilterPlan> runtimeFilters,
                            List<RuntimeFilterStats> runtimeFilterStats) {
        public Execution {
            runtimeFilters = List.copyOf(runtimeFilters);
            runtimeFilterStats = List.copyOf(runtimeFilterStats);
        }
    }

    /** Runs a plan and returns its rows. */
    public QueryResult run(final Plan plan) {
        return execute(plan).result();
    }

    /** Runs a plan and returns its rows and the strategies chosen. */
    public Execution execute(final Plan plan) {
        final DecidedPlan decided = PhysicalPlanner.plan(plan, config, tables, new Topology(1, executor.cores()),
                false);
        try (QueryMemory memory = QueryMemory.inSharedPool()) {
            final PipelineCompiler.Compiled compiled = new PipelineCompiler(tables, config, executor.cores())
                    .routeRuntimeFilters(router).memory(memory).compile(decided);
            executor.run(compiled.pipelines());
            return new Execution(compiled.result().result(), compiled.decisions(), compiled.runtimeFilters(),
                    compiled.runtimeFilterStats());
        }
    }

    /** Stops the worker threads. */
    @Override
    public void close() {
        executor.close();
    }
}
