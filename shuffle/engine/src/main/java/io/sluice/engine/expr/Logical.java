package io.sluice.engine.expr;

import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.List;

/**
 * {@code AND} / {@code OR} of two or more predicates in SQL's three-valued logic: an AND is FALSE
 * where a term is FALSE, else NULL where a term is NULL; an OR is TRUE where a term is TRUE, else
 * NULL where a term is NULL. Terms without NULLs take one loop per term, as two-valued logic.
 */
public record Logical(Op op, List<Expr> terms) implements Expr {
    /** The connectives. */
    public enum Op { AND, OR }

    public Logical {
        if (terms.size() < 2) {
            throw new IllegalArgumentException(op + " needs at least two terms, got " + terms);
        }
        terms = List.copyOf(terms);
    }

    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator[] bound = new Evaluator[terms.size()];
        for (int t = 0; t < bound.length; t++) {
            bound[t] = terms.get(t).bind(input);
            if (bound[t].type().kind() != DataType.Kind.BOOLEAN) {
                throw new IllegalArgumentException(this + ": term " + terms.get(t) + " is not a predicate");
            }
        }
        return new Evaluator(DataType.BOOLEAN) {
            private final boolean[] out = new boolean[MAX_ROWS];
            private final long[] nullRows = new long[NullRows.WORDS];
            /**
             * The batch {@link #out} and {@link #nullRows} were computed for: values and NULLs come from
             * one pass, which {@link #bools} and {@link #nulls} share instead of evaluating the terms
             * twice (twice per level of nesting, exponential in the depth).
             */
            private Batch evaluated;
            private boolean anyNull;

            @Override
            public boolean[] bools(final Batch batch) {
                evaluate(batch);
                return out;
            }

            @Override
            public long[] nulls(final Batch batch) {
                if (evaluated != batch) {
                    boolean termNulls = false;
                    for (final Evaluator term : bound) {
                        termNulls |= term.nulls(batch) != null;
                    }
                    if (!termNulls) {
                        return null;
                    }
                }
                evaluate(batch);
                return anyNull ? nullRows : null;
            }

            private void evaluate(final Batch batch) {
                if (evaluated == batch) {
                    return;
                }
                final int n = batch.rowCount();
                final boolean and = op == Op.AND;
                boolean withNulls = false;
                for (final Evaluator term : bound) {
                    withNulls |= term.nulls(batch) != null;
                }
                if (!withNulls) {
                    System.arraycopy(bound[0].bools(batch), 0, out, 0, n);
                    for (int t = 1; t < bound.length; t++) {
                        final boolean[] v = bound[t].bools(batch);
                        if (and) {
                            for (int i = 0; i < n; i++) {
                                out[i] &= v[i];
                            }
                        } else {
                            for (int i = 0; i < n; i++) {
                                out[i] |= v[i];
                            }
                        }
                    }
                    anyNull = false;
                } else {
                    kleene(batch, n, and);
                }
                evaluated = batch;
            }

            /**
             * Three-valued: {@code out} holds whether a deciding term (FALSE for AND, TRUE for OR) was
             * seen, {@code nullRows} whether a NULL term was; a decided row is not NULL.
             */
            private void kleene(final Batch batch, final int n, final boolean and) {
                final int words = NullMask.words(n);
                for (int i = 0; i < n; i++) {
                    out[i] = false;
                }
                for (int w = 0; w < words; w++) {
                    nullRows[w] = 0;
                }
                for (final Evaluator term : bound) {
                    final boolean[] v = term.bools(batch);
                    final long[] m = term.nulls(batch);
                    if (m == null) {
                        for (int i = 0; i < n; i++) {
                            out[i] |= v[i] != and;
                        }
                    } else {
                        for (int i = 0; i < n; i++) {
                            if (NullMask.isNull(m, i)) {
                                NullMask.setNull(nullRows, i);
                            } else {
                                out[i] |= v[i] != and;
                            }
                        }
                    }
                }
                boolean any = false;
                for (int i = 0; i < n; i++) {
                    if (out[i]) {
                        nullRows[i >>> 6] &= ~(1L << i);
                    }
                    // decided: FALSE for AND, TRUE for OR; undecided: TRUE for AND, FALSE for OR (or NULL)
                    out[i] = out[i] != and;
                }
                for (int w = 0; w < words; w++) {
                    any |= nullRows[w] != 0;
                }
                anyNull = any;
            }

            @Override
            public String toString() {
                return Logical.this.toString();
            }
        };
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("(");
        for (int t = 0; t < terms.size(); t++) {
            sb.append(t == 0 ? "" : " " + op + " ").append(terms.get(t));
        }
        return sb.append(')').toString();
    }
}
