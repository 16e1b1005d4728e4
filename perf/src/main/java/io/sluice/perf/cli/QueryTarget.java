package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.dispatch.control.StorageReads;
import io.sluice.dispatch.explain.ExplainAnalyze;
import io.sluice.dispatch.explain.ExplainPlan;
import io.sluice.dispatch.explain.Explainer;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.RuntimeFilterPlan;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.transport.Endpoint;
import java.util.List;

/**
 * Where {@code sluice query} and {@code sluice sql} run their plans: this process's worker threads, an
 * embedded cluster of CNs in this JVM, or the cluster of a running coordinator. Opened once, it runs
 * any number of plans one after the other with one strategy configuration, and {@link #cancel} stops
 * the one running from another thread (CTRL-C at the prompt, a shutdown hook).
 */
final class QueryTarget implements AutoCloseable {
    /**
     * One plan's answer.
     *
     * @param result  the rows
     * @param explain the strategy of each join and group-by (and, on a cluster, the fragments and exchanges), as
     *                lines ending with a newline
     * @param stats   what crossed CNs; null when the plan ran on this process's threads, without a cluster
     * @param analyzed the plan with what each operator did (EXPLAIN ANALYZE); null otherwise
     * @param columns  the result's column names to print: SQL's for SQL text the coordinator planned (two may
     *                 share one), else the result's own
     */
    record Outcome(QueryResult result, String explain, QueryStats stats, ExplainPlan analyzed, List<String> columns) {
        Outcome(final QueryResult result, final String explain, final QueryStats stats) {
            this(result, explain, stats, null);
        }

        Outcome(final QueryResult result, final String explain, final QueryStats stats, final ExplainPlan analyzed) {
            this(result, explain, stats, analyzed, result.rowType().names());
        }
    }

    private final StrategyConfig config;
    private final long timeoutMillis;
    private final QueryRunner runner;
    private final Session session;
    private final Catalog catalog;
    private final StoreCatalog ownCatalog;
    private final int workers;
    /** The shape plans are explained for, for a target that only plans; else null. */
    private final Topology planned;
    private final boolean plannedDistributed;
    private final CancelOnStop stop;
    private volatile Thread running;

    private QueryTarget(final StrategyConfig config, final long timeoutMillis, final QueryRunner runner,
                        final Session session, final Catalog catalog, final StoreCatalog ownCatalog, final int workers) {
        this(config, timeoutMillis, runner, session, catalog, ownCatalog, workers, null, false);
    }

    private QueryTarget(final StrategyConfig config, final long timeoutMillis, final QueryRunner runner,
                        final Session session, final Catalog catalog, final StoreCatalog ownCatalog, final int workers,
                        final Topology planned, final boolean plannedDistributed) {
        this.planned = planned;
        this.plannedDistributed = plannedDistributed;
        this.config = config;
        this.timeoutMillis = timeoutMillis;
        this.runner = runner;
        this.session = session;
        this.catalog = catalog;
        this.ownCatalog = ownCatalog;
        this.workers = workers;
        this.stop = session == null ? null : new CancelOnStop();
        if (stop != null) {
            stop.cancels(session);
        }
    }

    /**
     * A target that only explains plans, for {@code topology} (a cluster of it when {@code distributed}, else
     * one process of its cores), over a catalog the caller owns: it starts no thread and no CN.
     */
    static QueryTarget planning(final Catalog catalog, final Topology topology, final boolean distributed,
                                final StrategyConfig config) {
        return new QueryTarget(config, 0, null, null, catalog, null, topology.coresPerCn(), topology, distributed);
    }

    /** {@code workers} threads of this process over the tables of a catalog the caller owns. */
    static QueryTarget local(final Catalog catalog, final int workers, final StrategyConfig config) {
        return new QueryTarget(config, 0, new QueryRunner(catalog, workers, config), null, catalog, null, workers);
    }

    /** An embedded cluster of {@code topology} over a store, its CNs reaching each other over {@code network}. */
    static QueryTarget embedded(final Store store, final Topology topology, final Session.Network network,
                                final StrategyConfig config, final long timeoutMillis) {
        final StoreCatalog explained = new StoreCatalog(store);
        return new QueryTarget(config, timeoutMillis, null, new Session(store, topology, network), explained, explained,
                topology.coresPerCn());
    }

    /**
     * An embedded cluster of {@code topology} whose CNs read the tables of {@code catalog} (Parquet files), a
     * catalog the caller owns.
     */
    static QueryTarget embedded(final Catalog catalog, final Topology topology, final Session.Network network,
                                final StrategyConfig config, final long timeoutMillis) {
        return new QueryTarget(config, timeoutMillis, null, new Session(catalog, topology, network), catalog, null,
                topology.coresPerCn());
    }

    /**
     * The cluster of the coordinator at {@code hostPort}, explaining plans over {@code catalog}, a catalog the
     * caller owns (the Parquet files the CNs read).
     */
    static QueryTarget coordinator(final String hostPort, final ClusterContext context, final int cnCount,
                                   final int cores, final StrategyConfig config, final long timeoutMillis,
                                   final Catalog catalog) {
        final Session session = Session.connect(Endpoint.parse(hostPort, false), Session.defaultTransport(), context);
        try {
            session.shape(cnCount, cores);
            return new QueryTarget(config, timeoutMillis, null, session, catalog, null, cores);
        } catch (final RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /**
     * The cluster of the coordinator at {@code hostPort}: {@code cnCount} of its CNs (0: every CN alive) with
     * {@code cores} cores each (0: the fewest any of them offers).
     */
    static QueryTarget coordinator(final String hostPort, final ClusterContext context, final int cnCount,
                                   final int cores, final StrategyConfig config, final long timeoutMillis,
                                   final Store store) {
        final Session session = Session.connect(Endpoint.parse(hostPort, false), Session.defaultTransport(), context);
        try {
            session.shape(cnCount, cores);
            final StoreCatalog explained = store == null ? null : new StoreCatalog(store);
            return new QueryTarget(config, timeoutMillis, null, session, explained, explained, cores);
        } catch (final RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** Whether plans run on a cluster runtime (and so have stats of what crossed CNs). */
    boolean isCluster() {
        return session != null;
    }

    /** Runs a plan; {@code name} names it in the cluster's logs and stats. */
    Outcome run(final String name, final Plan plan) {
        onlyPlans();
        running = Thread.currentThread();
        try {
            if (session == null) {
                final QueryRunner.Execution execution = runner.execute(plan);
                final StringBuilder explain = new StringBuilder();
                for (final Decision d : execution.decisions()) {
                    explain.append("strategy ").append(d).append('\n');
                }
                for (final RuntimeFilterPlan f : execution.runtimeFilters()) {
                    explain.append("runtime filter ").append(f).append('\n');
                }
                return new Outcome(execution.result(), explain.toString(), null);
            }
            final Session.Execution execution = session.execute(name, plan, config, timeoutMillis);
            return new Outcome(execution.result(), execution.explain(), execution.stats());
        } finally {
            running = null;
        }
    }

    /**
     * Sends SQL text to the coordinator, which plans it over the tables its CNs read and runs it there: a client
     * needs no store of its own.
     */
    Outcome runSql(final String name, final String sql) {
        if (session == null || planned != null) {
            throw new IllegalStateException("SQL text goes to a coordinator's cluster: open one with --coordinator");
        }
        running = Thread.currentThread();
        try {
            final Session.Execution execution = session.executeSql(name, sql, config, timeoutMillis);
            return new Outcome(execution.result(), execution.explain(), execution.stats(), null, execution.columns());
        } finally {
            running = null;
        }
    }

    /**
     * EXPLAIN: the plan as the coordinator's CN compiles it (one process: as this process compiles it), built
     * here without running anything.
     */
    ExplainPlan explain(final String name, final Plan plan) {
        if (planned != null) {
            return Explainer.plan(name, plan, config, planned, explainCatalog(), plannedDistributed);
        }
        final Topology topology = session == null ? new Topology(1, workers) : session.topology();
        if (topology == null) {
            throw new IllegalArgumentException("--explain plans for a known shape: give --cn N and --cores K (the"
                    + " coordinator picks them only when the query runs), or --explain=analyze to run it");
        }
        return Explainer.plan(name, plan, config, topology, explainCatalog(), session != null);
    }

    /** EXPLAIN ANALYZE: runs a plan and explains it with what each operator and exchange did, every CN summed. */
    Outcome analyze(final String name, final Plan plan) {
        onlyPlans();
        if (session == null) {
            running = Thread.currentThread();
            try {
                final Explainer.Analyzed a = Explainer.analyzeLocally(name, plan, config, workers, catalog);
                return new Outcome(a.result(), a.plan().render(), null, a.plan());
            } finally {
                running = null;
            }
        }
        final Catalog tables = explainCatalog();
        final Outcome ran = run(name, plan);
        final ExplainPlan planned = Explainer.plan(name, plan, config, ran.stats().topology(), tables, true);
        final ExplainPlan analyzed = ExplainAnalyze.apply(planned, ran.stats().pipelines(), ran.stats().exchanges());
        final StorageReads storage = ran.stats().storage();
        return new Outcome(ran.result(), storage == null ? analyzed.render() : analyzed.render() + storage.describe()
                + "\n", ran.stats(), analyzed);
    }

    private void onlyPlans() {
        if (planned != null) {
            throw new IllegalStateException("this target only explains plans (--explain=plan): open one that runs"
                    + " them to run a query");
        }
    }

    private Catalog explainCatalog() {
        if (catalog == null) {
            throw new IllegalArgumentException("--explain on a coordinator's cluster plans here over the store's"
                    + " zonemaps: add --store DIR, the store the CNs read");
        }
        return catalog;
    }

    /**
     * Stops the plan running now, from another thread: on a cluster every CN stops it; on this process's
     * threads the thread waiting for it is interrupted, which cancels its pipelines. Its caller gets the error.
     */
    void cancel(final String reason) {
        if (session != null) {
            session.cancelAll(reason);
            return;
        }
        final Thread t = running;
        if (t != null) {
            t.interrupt();
        }
    }

    /** Stops the worker threads or the embedded cluster, or leaves the coordinator's cluster. */
    @Override
    public void close() {
        try {
            if (runner != null) {
                runner.close();
            }
            if (session != null) {
                session.close();
            }
            if (ownCatalog != null) {
                ownCatalog.close();
            }
        } finally {
            if (stop != null) {
                stop.close();
            }
        }
    }
}
