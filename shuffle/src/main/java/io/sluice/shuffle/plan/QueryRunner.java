package io.sluice.shuffle.plan;

import io.sluice.shuffle.exec.PipelineExecutor;
import io.sluice.shuffle.exec.QueryResult;
import io.sluice.storage.StorageException;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs plans against a store on a pool of worker threads: the entry point of a library user. */
public final class QueryRunner implements AutoCloseable {
    private final Store store;
    private final PipelineExecutor executor;
    private final StrategyConfig config;
    /** Tables stay open (their block files mapped and checked once) until the runner closes. */
    private final Map<String, Table> open = new HashMap<>();

    /** A runner over a store with {@code cores} worker threads and the default strategy config. */
    public QueryRunner(final Store store, final int cores) {
        this(store, cores, StrategyConfig.defaults());
    }

    /** A runner over a store with {@code cores} worker threads, distributing joins and group-bys by {@code config}. */
    public QueryRunner(final Store store, final int cores, final StrategyConfig config) {
        this.store = store;
        this.executor = new PipelineExecutor(cores);
        this.config = config;
    }

    /** A query's rows and the strategy each of its joins and group-bys ran with. */
    public record Execution(QueryResult result, List<Decision> decisions) {
    }

    /** Runs a plan and returns its rows; tables are opened on first use and stay open until {@link #close()}. */
    public QueryResult run(final Plan plan) {
        return execute(plan).result();
    }

    /** Runs a plan and returns its rows and the strategies chosen. */
    public Execution execute(final Plan plan) {
        final PipelineCompiler.Compiled compiled = new PipelineCompiler(name -> open.computeIfAbsent(name, n -> {
            if (!store.hasTable(n)) {
                throw new StorageException("store " + store.dir() + " has no table '" + n + "' (it has "
                        + store.tableNames() + "): generate it with sluice gen or import it");
            }
            return store.table(n);
        }), config, executor.cores()).compile(plan);
        executor.run(compiled.pipelines());
        return new Execution(compiled.result().result(), compiled.decisions());
    }

    @Override
    public void close() {
        executor.close();
        for (final Table t : open.values()) {
            t.close();
        }
        open.clear();
    }
}
