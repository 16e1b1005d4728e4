package io.sluice.dispatch.cluster;

import io.sluice.engine.plan.DecidedPlan;
import io.sluice.engine.plan.PhysicalPlanner;
import io.sluice.engine.plan.PlanCodec;
import io.sluice.engine.plan.ShippedPlan;
import io.sluice.engine.plan.ShippedSql;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

/**
 * Decides each query's plan on the coordinator, once, for the CNs it runs on ({@link PhysicalPlanner}), from the
 * zonemaps of the coordinator's store: the CNs get the decided plan and only cut it into pipelines. The store's
 * tables are opened on the first query and stay open.
 *
 * <p>Plans are decided on a thread of their own ({@link #submit}), never on the control loop: planning SQL text
 * can take seconds (the SQL front end's first statement, a large store's tables opening), and a control loop that
 * waits that long hears no heartbeat and would take busy CNs for dead.
 */
final class CoordinatorPlanner implements AutoCloseable {
    /**
     * A query's decided plan, or why it has none.
     *
     * @param columns the result's column names as SQL names them, for SQL text; null for a client's plan, whose
     *                result columns keep the plan's names
     */
    record Outcome(long queryId, byte[] decided, List<String> columns, String errorType, String error) {
    }

    /** A decided plan's bytes and, for SQL text, its result's names as SQL gives them (else null). */
    record Decided(byte[] plan, List<String> columns) {
    }

    private final Store store;
    private final Runnable wake;
    private final ManyToOneConcurrentLinkedQueue<Outcome> outcomes = new ManyToOneConcurrentLinkedQueue<>();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        final Thread t = new Thread(r, "sluice-coordinator-planner");
        t.setDaemon(true);
        return t;
    });
    /** The tables plans are decided over: the store's, opened at the first query, or those given to {@link #catalog}. */
    private Catalog tables;
    private StoreCatalog own;
    private volatile SqlPlanning sql;

    /** @param wake wakes the control loop when a plan is decided */
    CoordinatorPlanner(final Store store, final Runnable wake) {
        this.store = store;
        this.wake = wake;
    }

    /** Decides a query's plan on the planning thread; its outcome comes out of {@link #poll}. */
    void submit(final long queryId, final byte[] request, final Topology topology) {
        thread.execute(() -> {
            Outcome outcome;
            try {
                final Decided decided = decide(request, topology);
                outcome = new Outcome(queryId, decided.plan(), decided.columns(), null, null);
            } catch (final RuntimeException | StackOverflowError | OutOfMemoryError e) {
                outcome = new Outcome(queryId, null, null, e.getClass().getSimpleName(),
                        String.valueOf(e.getMessage()));
            }
            outcomes.offer(outcome);
            wake.run();
        });
    }

    /** The next plan decided (or refused), or null: for the control loop. */
    Outcome poll() {
        return outcomes.poll();
    }

    /** Decides plans over {@code catalog} (the tables the CNs read, such as Parquet files) instead of the store's. */
    synchronized void catalog(final Catalog catalog) {
        this.tables = catalog;
    }

    /** Plans SQL text a client sends with {@code planning} from now on. */
    void sqlPlanning(final SqlPlanning planning) {
        this.sql = planning;
    }

    /**
     * The decided plan's bytes for a client's plan (checked by {@link PlanTables}) or SQL text, and a
     * topology; for SQL text, with its result's names.
     */
    synchronized Decided decide(final byte[] request, final Topology topology) {
        if (tables == null) {
            if (store == null) {
                throw new IllegalStateException("this coordinator has no tables to plan from: start it with --store"
                        + " or --parquet, as its CNs");
            }
            own = new StoreCatalog(store, "every CN must read the same store as the coordinator");
            tables = own;
        }
        final ShippedSql text = PlanCodec.sqlOf(request);
        final ShippedPlan shipped;
        List<String> columns = null;
        if (text == null) {
            shipped = PlanTables.checked(request, store);
        } else {
            final SqlPlanning planning = sql;
            if (planning == null) {
                throw new IllegalArgumentException("this coordinator plans no SQL text: start it with sluice"
                        + " coordinator, or send a plan (sluice sql --store DIR plans on the client)");
            }
            final SqlPlanning.Planned planned = planning.plan(text.sql(), tables);
            shipped = new ShippedPlan(planned.plan(), text.config());
            columns = planned.columns();
        }
        final DecidedPlan decided = PhysicalPlanner.plan(shipped.plan(), shipped.config(), tables, topology, true);
        return new Decided(PlanCodec.encodeDecided(decided), columns);
    }

    @Override
    public void close() {
        thread.shutdownNow();
        closeTables();
    }

    private synchronized void closeTables() {
        if (own != null) {
            own.close();
            own = null;
            tables = null;
        }
    }
}
