/**
 * Scalar expressions: {@link io.sluice.engine.expr.Expr} trees written by plans over column names,
 * bound per worker to a {@link io.sluice.engine.expr.RowType} into
 * {@link io.sluice.engine.expr.Evaluator}s that fill primitive arrays a batch at a time (longs for
 * integers, scaled decimals and dates; booleans for predicates; string vectors). Decimal arithmetic
 * is exact and overflow-checked; constants and date intervals are folded when written. The
 * expression types are a closed set ({@code Expr} is sealed), so a plan shipped to another process
 * is rebuilt there from the same records.
 *
 * <p>NULLs follow SQL: an evaluator reports its NULL rows apart from its values
 * ({@link io.sluice.engine.expr.Evaluator#nulls}, null when there are none, so that inputs without
 * NULLs take the same loops as before); operators propagate them, AND / OR are three-valued, CASE
 * takes a branch only where its condition is TRUE, and a value under a NULL row is never used to
 * throw (an overflow there is not computed).
 *
 * <p>Depends on the format (vectors) and the {@link io.sluice.shuffle.operator.Batch} of the shuffle operator.
 */
package io.sluice.engine.expr;
