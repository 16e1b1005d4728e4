package io.sluice.engine.expr;

import io.sluice.shuffle.operator.Batch;
import java.util.List;

/** {@code AND} / {@code OR} of two or more predicates. */
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

            @Override
            public boolean[] bools(final Batch batch) {
                final int n = batch.rowCount();
                System.arraycopy(bound[0].bools(batch), 0, out, 0, n);
                for (int t = 1; t < bound.length; t++) {
                    final boolean[] v = bound[t].bools(batch);
                    if (op == Op.AND) {
                        for (int i = 0; i < n; i++) {
                            out[i] &= v[i];
                        }
                    } else {
                        for (int i = 0; i < n; i++) {
                            out[i] |= v[i];
                        }
                    }
                }
                return out;
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
