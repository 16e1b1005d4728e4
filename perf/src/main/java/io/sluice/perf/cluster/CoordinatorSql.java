package io.sluice.perf.cluster;

import io.sluice.dispatch.cluster.SqlPlanning;
import io.sluice.format.spi.Catalog;
import io.sluice.sql.PlannedQuery;
import io.sluice.sql.SqlPlanner;
import java.util.List;
import java.util.function.Supplier;

/**
 * The coordinator's SQL front end: plans the SQL text clients send over the coordinator's tables, keeping
 * one {@link SqlPlanner} (and its plan cache) for the catalog the coordinator plans with, and gives the result's
 * column names as SQL names them ({@link PlannedQuery#columns}), which the client gets with the rows.
 */
public final class CoordinatorSql implements SqlPlanning {
    private final Supplier<List<String>> names;
    private Catalog catalog;
    private SqlPlanner planner;

    /** @param names the names of the tables the coordinator plans over, asked when its catalog changes */
    public CoordinatorSql(final Supplier<List<String>> names) {
        this.names = names;
    }

    @Override
    public synchronized Planned plan(final String sql, final Catalog tables) {
        if (tables != catalog) {
            catalog = tables;
            planner = new SqlPlanner(tables, names.get());
        }
        final PlannedQuery planned = planner.plan(sql);
        return new Planned(planned.plan(), planned.columns());
    }
}
