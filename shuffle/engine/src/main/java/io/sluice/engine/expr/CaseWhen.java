package io.sluice.engine.expr;

import io.sluice.shuffle.operator.Batch;

/** {@code CASE WHEN condition THEN a ELSE b END} over exact numbers (scales aligned). */
public record CaseWhen(Expr condition, Expr then, Expr otherwise) implements Expr {
    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator c = condition.bind(input);
        if (c.type().kind() != DataType.Kind.BOOLEAN) {
            throw new IllegalArgumentException(this + ": " + condition + " is not a predicate");
        }
        final Evaluator a0 = then.bind(input);
        final Evaluator b0 = otherwise.bind(input);
        Scales.requireNumeric(a0, toString(), false);
        Scales.requireNumeric(b0, toString(), false);
        final boolean decimal = a0.type().kind() == DataType.Kind.DECIMAL || b0.type().kind() == DataType.Kind.DECIMAL;
        final int scale = Math.max(Scales.scale(a0.type()), Scales.scale(b0.type()));
        final Evaluator a = Scales.rescale(a0, scale);
        final Evaluator b = Scales.rescale(b0, scale);
        return new Evaluator(decimal ? DataType.decimal(scale) : DataType.INT64) {
            private final long[] out = new long[MAX_ROWS];

            @Override
            public long[] longs(final Batch batch) {
                final boolean[] when = c.bools(batch);
                final long[] x = a.longs(batch);
                final long[] y = b.longs(batch);
                final int n = batch.rowCount();
                for (int i = 0; i < n; i++) {
                    out[i] = when[i] ? x[i] : y[i];
                }
                return out;
            }

            @Override
            public String toString() {
                return CaseWhen.this.toString();
            }
        };
    }

    @Override
    public String toString() {
        return "CASE WHEN " + condition + " THEN " + then + " ELSE " + otherwise + " END";
    }
}
