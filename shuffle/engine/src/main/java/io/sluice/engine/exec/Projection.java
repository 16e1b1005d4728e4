package io.sluice.engine.exec;

import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Computes named expressions per batch, each output vector with the NULL rows of its expression; a
 * bare column reference passes its vector on without a copy. A batch sorted by a column passed on
 * stays sorted by it (a shuffle on that key can then route it whole by its ends).
 */
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
                    columns[i] = vector(evaluators[i], batch, n);
                }
                next.accept(keepOrder(batch, new Batch(columns, null, sortedOutput(batch.sortedBy()))));
            }

            /** The output column that passes on the input's sort column, or NOT_SORTED. */
            private int sortedOutput(final int sortedBy) {
                for (int i = 0; sortedBy != Batch.NOT_SORTED && i < passThrough.length; i++) {
                    if (passThrough[i] == sortedBy) {
                        return i;
                    }
                }
                return Batch.NOT_SORTED;
            }
        };
    }

    /** The projected batch with the input's {@code shuffleIdx}: a projection moves no row to another bucket. */
    private static Batch keepOrder(final Batch in, final Batch out) {
        return in.shuffleIdx() == Batch.NO_SHUFFLE_IDX ? out : out.withShuffleIdx(in.shuffleIdx());
    }

    /** The values of an evaluator over a batch as a vector of its own (or the input's), with its NULL rows. */
    private static ColumnVector vector(final Evaluator e, final Batch batch, final int n) {
        final DataType t = e.type();
        if (t.kind() == DataType.Kind.STRING) {
            final StringVector s = e.strings(batch);
            final long[] nulls = e.nulls(batch);
            final StringVector rows = s.rowCount() == n ? s : (StringVector) Vectors.slice(s, 0, n);
            return rows.nulls() == nulls ? rows : withNulls(rows, nulls, n);
        }
        if (t.isWide()) {
            final long[] high = Arrays.copyOf(e.highs(batch), n);
            final long[] low = Arrays.copyOf(e.lows(batch), n);
            return new Decimal128Vector(t.storage(), high, low, n, copy(e.nulls(batch), n));
        }
        final long[] v = e.longs(batch);
        final long[] nulls = copy(e.nulls(batch), n);
        if (t.isLongStored()) {
            return new LongVector(t.storage(), Arrays.copyOf(v, n), n, nulls);
        }
        final int[] ints = new int[n];
        if (nulls == null) {
            for (int r = 0; r < n; r++) {
                ints[r] = Math.toIntExact(v[r]);
            }
        } else {
            for (int r = 0; r < n; r++) {
                ints[r] = NullMask.isNull(nulls, r) ? 0 : Math.toIntExact(v[r]);
            }
        }
        return new IntVector(t.storage(), ints, n, nulls);
    }

    /** An evaluator's NULL rows as the output vector's own bitmap (evaluators reuse theirs), or null. */
    private static long[] copy(final long[] nulls, final int n) {
        return nulls == null || NullMask.count(nulls, n) == 0 ? null : Arrays.copyOf(nulls, NullMask.words(n));
    }

    /** The same strings with the evaluator's NULL rows, which may differ from the vector's own bitmap. */
    private static StringVector withNulls(final StringVector s, final long[] nulls, final int n) {
        final long[] own = copy(nulls, n);
        return s.isDictionary() ? StringVector.dictionary(s.codes(), s.dictionary(), n, own)
                : StringVector.plain(s.offsets(), s.bytes(), n, own);
    }

    @Override
    public String toString() {
        return "project " + items;
    }
}
