package io.sluice.perf.bench;

import io.sluice.engine.exec.QueryResult;
import io.sluice.perf.tpch.Query;
import io.sluice.sql.SqlPlanner;
import java.util.List;

/**
 * A query a bench plans from its SQL text on every run, once bound to the bench's store by
 * {@link #over}: TPC-H's ({@link TpchTextQuery}) and TPC-DS's ({@link TpcdsTextQuery}).
 */
public interface TextQuery extends Query {
    /** The same query, planned by {@code sqlPlanner} (over the store the bench runs on). */
    TextQuery over(SqlPlanner sqlPlanner);

    /**
     * The result's column names as SQL names them (two may share a name, which the plan's own
     * result columns cannot), from the bound planner.
     */
    List<String> columns();

    /** A result's column names as SQL names them: a text query's {@link #columns()}, else the result's own. */
    static List<String> columnsOf(final Query query, final QueryResult result) {
        return query instanceof TextQuery t ? t.columns() : result.rowType().names();
    }
}
