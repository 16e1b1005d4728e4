/**
 * EXPLAIN and EXPLAIN ANALYZE of a compiled query: {@link io.sluice.dispatch.explain.ExplainBuilder}
 * builds one model ({@link io.sluice.dispatch.explain.ExplainPlan}) from the compiled pipelines of the
 * coordinator's CN, the exchanges the compiler asked for ({@link io.sluice.dispatch.explain.RecordingExchanges})
 * and the plan's zonemap estimates; two renderers print it, seed 001's operator table
 * ({@link io.sluice.dispatch.explain.OperatorTable}) and seed 002's fragments
 * ({@link io.sluice.dispatch.explain.FragmentView}); {@link io.sluice.dispatch.explain.ExplainAnalyze}
 * adds what a run did, every CN's counters summed. Depends on the engine, shuffle and dispatch.control;
 * nothing in the engine depends on it.
 */
package io.sluice.dispatch.explain;
