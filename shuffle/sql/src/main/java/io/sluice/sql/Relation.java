package io.sluice.sql;

import io.sluice.engine.plan.Plan;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A relational expression translated into Sluice terms: the plan, the engine column that holds
 * each of the Calcite expression's fields (several fields may share one column), which columns
 * hold doubles (averages, divisions), the estimated rows, and for a field that is a stored column
 * passed on unchanged, that column's zonemap statistics.
 *
 * @param plan     the plan producing the rows
 * @param columns  for Calcite field i, the plan's column name
 * @param doubles  the plan columns whose values are DOUBLE
 * @param rows     estimated rows
 * @param stats    for field i, the stored column's statistics, or null when it is computed
 */
record Relation(Plan plan, List<String> columns, Set<String> doubles, double rows, StoredColumn[] stats) {
    Relation {
        columns = List.copyOf(columns);
        doubles = Set.copyOf(doubles);
        if (stats.length != columns.size()) {
            throw new IllegalArgumentException(stats.length + " column statistics for " + columns.size() + " fields");
        }
    }

    /** The plan column of field i. */
    String column(final int field) {
        return columns.get(field);
    }

    /** Estimated distinct values of field i, at most the rows; the rows when unknown. */
    double distinctOf(final int field) {
        final StoredColumn s = stats[field];
        return s == null || s.stats().distinctCount() <= 0 ? rows : Math.min(s.stats().distinctCount(), rows);
    }

    /** The statistics of the stored columns among the plan's columns, by column name. */
    Map<String, StoredColumn> statsByColumn() {
        final Map<String, StoredColumn> m = new HashMap<>();
        for (int i = 0; i < stats.length; i++) {
            if (stats[i] != null) {
                m.put(columns.get(i), stats[i]);
            }
        }
        return m;
    }

    /** The same fields over another plan with another row estimate. */
    Relation with(final Plan newPlan, final double newRows) {
        return new Relation(newPlan, columns, doubles, Math.max(1, newRows), stats);
    }
}
