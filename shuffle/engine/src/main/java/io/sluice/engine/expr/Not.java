package io.sluice.engine.expr;

import io.sluice.shuffle.operator.Batch;

/** {@code NOT e} of a predicate; NOT NULL is NULL. */
public record Not(Expr term) implements Expr {
    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator e = term.bind(input);
        if (e.type().kind() != DataType.Kind.BOOLEAN) {
            throw new IllegalArgumentException(this + ": " + term + " is not a predicate");
        }
        return new Evaluator(DataType.BOOLEAN) {
            private final boolean[] out = new boolean[MAX_ROWS];

            @Override
            public boolean[] bools(final Batch batch) {
                final boolean[] v = e.bools(batch);
                final int n = batch.rowCount();
                for (int i = 0; i < n; i++) {
                    out[i] = !v[i];
                }
                return out;
            }

            @Override
            public long[] nulls(final Batch batch) {
                return e.nulls(batch);
            }

            @Override
            public String toString() {
                return Not.this.toString();
            }
        };
    }

    @Override
    public String toString() {
        return "NOT " + term;
    }
}
