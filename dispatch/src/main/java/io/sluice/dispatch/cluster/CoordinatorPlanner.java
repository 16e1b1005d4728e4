package io.sluice.dispatch.cluster;

import io.sluice.engine.plan.DecidedPlan;
import io.sluice.engine.plan.PhysicalPlanner;
import io.sluice.engine.plan.PlanCodec;
import io.sluice.engine.plan.ShippedPlan;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;

/**
 * Decides each query's plan on the coordinator, once, for the CNs it runs on ({@link PhysicalPlanner}), from the
 * zonemaps of the coordinator's store: the CNs get the decided plan and only cut it into pipelines. The store's
 * tables are opened on the first query and stay open.
 */
final class CoordinatorPlanner implements AutoCloseable {
    private final Store store;
    private StoreCatalog tables;

    CoordinatorPlanner(final Store store) {
        this.store = store;
    }

    /** The decided plan's bytes for a client's plan (checked by {@link PlanTables} first) and a topology. */
    byte[] decide(final byte[] plan, final Topology topology) {
        if (tables == null) {
            tables = new StoreCatalog(store, "every CN must read the same store as the coordinator");
        }
        final ShippedPlan shipped = PlanCodec.decode(plan);
        final DecidedPlan decided = PhysicalPlanner.plan(shipped.plan(), shipped.config(), tables, topology, true);
        return PlanCodec.encodeDecided(decided);
    }

    @Override
    public void close() {
        if (tables != null) {
            tables.close();
            tables = null;
        }
    }
}
