package io.sluice.sql;

import io.sluice.engine.plan.Plan;
import java.util.List;

/**
 * A SQL statement planned for Sluice: the plan (its result columns carry the statement's column
 * names, the second of two alike made unique, {@code x0}), the estimates behind its scans and joins (for EXPLAIN), and how long planning took.
 *
 * @param plan          the physical plan, run by a {@code QueryRunner} or a cluster session
 * @param columns       the result's column names, in SELECT order, as SQL names them: two columns may
 *                      share one ({@code SELECT a.x, b.x})
 * @param estimates     one line per scan and join: rows, blocks kept by pruning, build and probe sizes
 * @param planningNanos time from the text to the plan
 * @param cached        whether the planner had planned the same text before and kept its plan
 */
public record PlannedQuery(Plan plan, List<String> columns, List<String> estimates, long planningNanos,
                           boolean cached) {
    public PlannedQuery {
        columns = List.copyOf(columns);
        estimates = List.copyOf(estimates);
    }
}
