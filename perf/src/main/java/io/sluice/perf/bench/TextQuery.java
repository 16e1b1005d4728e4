package io.sluice.perf.bench;

import io.sluice.perf.tpch.Query;
import io.sluice.sql.SqlPlanner;

/**
 * A query a bench plans from its SQL text on every run, once bound to the bench's store by
 * {@link #over}: TPC-H's ({@link TpchTextQuery}) and TPC-DS's ({@link TpcdsTextQuery}).
 */
public interface TextQuery extends Query {
    /** The same query, planned by {@code sqlPlanner} (over the store the bench runs on). */
    TextQuery over(SqlPlanner sqlPlanner);
}
