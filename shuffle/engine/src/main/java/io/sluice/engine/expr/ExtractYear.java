package io.sluice.engine.expr;

import io.sluice.shuffle.operator.Batch;

/** {@code EXTRACT(YEAR FROM date)}, an INT64, NULL where the date is. */
public record ExtractYear(Expr date) implements Expr {
    @Override
    public Evaluator bind(final RowType input) {
        final Evaluator d = date.bind(input);
        if (d.type().kind() != DataType.Kind.DATE) {
            throw new IllegalArgumentException(this + ": " + date + " has type " + d.type() + ", expected a date");
        }
        return new Evaluator(DataType.INT64) {
            private final long[] out = new long[MAX_ROWS];

            @Override
            public long[] longs(final Batch batch) {
                final long[] days = d.longs(batch);
                final int n = batch.rowCount();
                for (int i = 0; i < n; i++) {
                    out[i] = Dates.yearOf(days[i]);
                }
                return out;
            }

            @Override
            public long[] nulls(final Batch batch) {
                return d.nulls(batch);
            }

            @Override
            public String toString() {
                return ExtractYear.this.toString();
            }
        };
    }

    @Override
    public String toString() {
        return "EXTRACT(YEAR FROM " + date + ")";
    }
}
