package io.sluice.engine.exec;

import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.shuffle.operator.Batch;

/** Keeps the rows of each batch for which a predicate holds. */
public final class Filter implements OperatorFactory {
    private final RowType input;
    private final Expr predicate;

    public Filter(final RowType input, final Expr predicate) {
        this.input = input;
        this.predicate = predicate;
        predicate.bind(input);
    }

    @Override
    public RowType outputType() {
        return input;
    }

    @Override
    public Operator create(final BatchConsumer next) {
        final Evaluator e = predicate.bind(input);
        final int[] scratch = new int[Block.MAX_ROWS];
        return new Operator(next) {
            @Override
            public void accept(final Batch batch) {
                final Batch kept = Vectors.select(batch, e.trues(batch), scratch);
                if (kept != null) {
                    next.accept(kept);
                }
            }
        };
    }

    @Override
    public String toString() {
        return "filter " + predicate;
    }
}
