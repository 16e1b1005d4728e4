package io.sluice.engine.exec;

import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Computes named expressions per batch; a bare column reference passes its vector on without a copy. */
public final class Projection implements OperatorFactory {
    private final RowType input;
    private final List<NamedExpr> items;
    private final RowType output;

    public Projection(final RowType input, final List<NamedExpr> items) {
        this.input = input;
        this.items = List.copyOf(items);
        final List<String> names = new ArrayList<>();
        final List<DataType> types = new ArrayList<>();
        for (final NamedExpr item : items) {
            final DataType t = item.expr().bind(input).type();
            if (t.kind() == DataType.Kind.BOOLEAN) {
                throw new IllegalArgumentException("projection of " + item.name() + " = " + item.expr()
                        + " is a predicate: wrap it in CASE WHEN to project a number");
            }
            names.add(item.name());
            types.add(t);
        }
        this.output = new RowType(names, types);
    }

    @Override
    public RowType outputType() {
        return output;
    }

    @Override
    public Operator create(final BatchConsumer next) {
        final Evaluator[] evaluators = new Evaluator[items.size()];
        final int[] passThrough = new int[items.size()];
        for (int i = 0; i < evaluators.length; i++) {
            final NamedExpr item = items.get(i);
            passThrough[i] = item.expr() instanceof ColumnRef ref ? input.indexOf(ref.name()) : -1;
            evaluators[i] = item.expr().bind(input);
        }
        return new Operator(next) {
            @Override
            public void accept(final Batch batch) {
                final int n = batch.rowCount();
                final ColumnVector[] columns = new ColumnVector[evaluators.length];
                for (int i = 0; i < columns.length; i++) {
                    if (passThrough[i] >= 0) {
                        columns[i] = batch.column(passThrough[i]);
                        continue;
                    }
                    final Evaluator e = evaluators[i];
                    final DataType t = e.type();
                    if (t.kind() == DataType.Kind.STRING) {
                        final StringVector s = e.strings(batch);
                        columns[i] = s.rowCount() == n ? s : Vectors.slice(s, 0, n);
                    } else if (t.isLongStored()) {
                        columns[i] = new LongVector(t.storage(), Arrays.copyOf(e.longs(batch), n), n, null);
                    } else {
                        final long[] v = e.longs(batch);
                        final int[] ints = new int[n];
                        for (int r = 0; r < n; r++) {
                            ints[r] = Math.toIntExact(v[r]);
                        }
                        columns[i] = new IntVector(t.storage(), ints, n, null);
                    }
                }
                next.accept(Batch.of(columns));
            }
        };
    }

    @Override
    public String toString() {
        return "project " + items;
    }
}
