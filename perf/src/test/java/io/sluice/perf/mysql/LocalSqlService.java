package io.sluice.perf.mysql;

import io.sluice.dispatch.cluster.QueryFailedException;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.format.Schema;
import io.sluice.sql.PlannedQuery;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The statements of the protocol tests, planned by {@link SqlPlanner} and run on two worker threads of the
 * test's JVM over a store. The statement {@link #BLOCKING} runs until it is cancelled, and every
 * cancellation's reason is kept, so a test can see what stopped it.
 */
final class LocalSqlService implements SqlService {
    /** A statement that blocks until cancelled. */
    static final String BLOCKING = "select * from blocks_until_cancelled";

    private final Store store;
    private final StoreCatalog catalog;
    private final SqlPlanner planner;
    private final QueryRunner runner;
    final LinkedBlockingQueue<String> cancelled = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<String> started = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<RunSettings> settingsSeen = new LinkedBlockingQueue<>();

    LocalSqlService(final Store store) {
        this.store = store;
        this.catalog = new StoreCatalog(store);
        this.planner = new SqlPlanner(catalog, store.tableNames());
        this.runner = new QueryRunner(catalog, 2, StrategyConfig.defaults());
    }

    @Override
    public List<String> tables() {
        return store.tableNames().stream().sorted().toList();
    }

    @Override
    public Schema columns(final String table) {
        return store.tableNames().contains(table) ? catalog.table(table).schema() : null;
    }

    @Override
    public Statements open(final String client) {
        final CountDownLatch cancel = new CountDownLatch(1);
        return new Statements() {
            @Override
            public StatementResult execute(final String sql, final RunSettings settings) {
                started.add(sql);
                settingsSeen.add(settings);
                if (sql.equals(BLOCKING)) {
                    try {
                        if (!cancel.await(2, TimeUnit.MINUTES)) {
                            throw new IllegalStateException("never cancelled");
                        }
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new QueryFailedException("QueryCancelledException",
                            "query cancelled");
                }
                final PlannedQuery planned = planner.plan(sql);
                return new StatementResult(runner.run(planned.plan()), planned.columns());
            }

            @Override
            public void cancel(final String reason) {
                cancelled.add(reason);
                cancel.countDown();
            }

            @Override
            public void close() {
                cancel.countDown();
            }
        };
    }

    /** Kept open when one of the test's servers stops, since the others still use it: {@link #shutdown} ends it. */
    @Override
    public void close() {
    }

    void shutdown() {
        runner.close();
        catalog.close();
    }
}
