/**
 * SQL corpus tests: statements from resource files, planned by {@link io.sluice.sql.SqlPlanner} and run on worker
 * threads and an embedded cluster over tables imported from CSV, compared with DuckDB's answers to the same text
 * ({@link io.sluice.perf.sql.NullCorpusTest}).
 */
package io.sluice.perf.sql;
