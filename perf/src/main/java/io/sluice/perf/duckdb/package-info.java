/**
 * DuckDB as the oracle and the performance peer: loads the rows of a Sluice store into an
 * in-process DuckDB so the same query can run on both over the same data.
 */
package io.sluice.perf.duckdb;
