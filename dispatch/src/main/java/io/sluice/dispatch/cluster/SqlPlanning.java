package io.sluice.dispatch.cluster;

import io.sluice.engine.plan.Plan;
import io.sluice.format.spi.Catalog;

/**
 * Turns a SQL statement into a logical plan on the coordinator, so that a client without a store can send SQL
 * text. The SQL front end lives above this module: the process that starts the coordinator passes one in
 * ({@link Coordinator#sqlPlanning}); a coordinator without one refuses SQL text with an error saying so.
 */
@FunctionalInterface
public interface SqlPlanning {
    /**
     * The plan of a statement over the coordinator's tables.
     *
     * @throws RuntimeException naming what is wrong with the statement; the client gets its message
     */
    Plan plan(String sql, Catalog tables);
}
