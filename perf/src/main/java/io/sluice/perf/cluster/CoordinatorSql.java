package io.sluice.perf.cluster;

import io.sluice.dispatch.cluster.SqlPlanning;
import io.sluice.engine.plan.Plan;
import io.sluice.sql.SqlPlanner;
import io.sluice.storage.StoreCatalog;

/**
 * The coordinator's SQL front end: plans the SQL text clients send over the coordinator's own store, keeping
 * one {@link SqlPlanner} (and its plan cache) for the catalog the coordinator plans with.
 */
public final class CoordinatorSql implements SqlPlanning {
    private StoreCatalog catalog;
    private SqlPlanner planner;

    @Override
    public synchronized Plan plan(final String sql, final StoreCatalog tables) {
        if (tables != catalog) {
            catalog = tables;
            planner = new SqlPlanner(tables, tables.store().tableNames());
        }
        return planner.plan(sql).plan();
    }
}
