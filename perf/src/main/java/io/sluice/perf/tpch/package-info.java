/**
 * TPC-H: the eight tables' schemas and a loader that streams dbgen-exact rows from the
 * {@code io.trino.tpch} generator into a store; the queries and join/group workloads as physical
 * plans, each next to the SQL text it implements (with the specification's validation
 * parameters), and their registry.
 *
 * <p>Depends on the engine's plan API ({@code io.sluice.engine.plan}), zonemap predicates and the
 * block store.
 */
package io.sluice.perf.tpch;
