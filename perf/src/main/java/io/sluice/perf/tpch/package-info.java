/**
 * TPC-H queries and join/group workloads as physical plans, each next to the SQL text it
 * implements (with the specification's validation parameters), and their registry.
 *
 * <p>Depends on the plan API of shuffle ({@code io.sluice.shuffle.plan}) and zonemap predicates.
 */
package io.sluice.perf.tpch;
