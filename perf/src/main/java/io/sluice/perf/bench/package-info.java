/**
 * {@code sluice bench}: runs TPC-H queries (from their SQL text, {@link io.sluice.perf.bench.TpchTextQuery})
 * and workloads under every chosen strategy on embedded
 * clusters of several shapes (one {@link io.sluice.dispatch.cluster.Session}, its topology changed
 * between shapes), optionally beside DuckDB on the same rows, checks every answer, and turns the
 * measurements into {@code results.csv}, {@code summary.md} and PNG charts (JFreeChart, headless).
 * The command itself and {@code results.json} live in {@code io.sluice.perf.cli}.
 *
 * <p>Depends on dispatch, shuffle, storage, the SQL planner, the TPC-H queries and the DuckDB loader of perf;
 * only the command line depends on it.
 */
package io.sluice.perf.bench;
