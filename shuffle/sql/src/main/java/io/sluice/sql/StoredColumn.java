package io.sluice.sql;

import io.sluice.zonemap.ColumnStats;

/**
 * What the planner knows of a field that is a stored column passed on unchanged: its zonemap
 * statistics and its decimal scale (the statistics' keys are scaled longs).
 *
 * @param stats the column's statistics over its whole table
 * @param scale the decimal scale of its keys, 0 for other kinds
 */
record StoredColumn(ColumnStats stats, int scale) {
}
