package io.sluice.dispatch.cluster;

import io.sluice.engine.plan.Plan;
import io.sluice.format.spi.Catalog;
import java.util.List;

/**
 * Turns a SQL statement into a logical plan on the coordinator, so that a client without a store can send SQL
 * text. The SQL front end lives above this module: the process that starts the coordinator passes one in
 * ({@link Coordinator#sqlPlanning}); a coordinator without one refuses SQL text with an error saying so.
 */
@FunctionalInterface
public interface SqlPlanning {
    /**
     * A statement's plan and its result's column names as SQL names them, which two columns may share
     * ({@code SELECT a.x, b.x}) while the plan's own result columns are unique ({@code x}, {@code x0}).
     */
    record Planned(Plan plan, List<String> columns) {
        public Planned {
            columns = List.copyOf(columns);
        }
    }

    /**
     * The plan of a statement over the coordinator's tables, with its result's names.
     *
     * @throws RuntimeException naming what is wrong with the statement; the client gets its message
     */
    Planned plan(String sql, Catalog tables);
}
