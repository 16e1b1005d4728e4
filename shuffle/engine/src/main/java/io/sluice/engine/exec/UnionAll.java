package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * UNION ALL of several inputs: each input's pipeline ends in one of its sinks ({@link #input(int)}),
 * a {@link ResultCollector} keeping the batches it receives, and one later pipeline reads the
 * batches of all of them ({@link #output()}). Columns are matched by position; the output has the first input's names.
 */
public final class UnionAll {
    private final RowType rowType;
    private final List<ResultCollector> inputs = new ArrayList<>();

    /**
     * @param inputs the row types of the inputs, in order: the same column count and types
     * @throws IllegalArgumentException naming the input and column that differ from the first input
     */
    public UnionAll(final List<RowType> inputs) {
        if (inputs.size() < 2) {
            throw new IllegalArgumentException("UNION ALL needs two or more inputs, got " + inputs.size());
        }
        this.rowType = inputs.get(0);
        for (int i = 0; i < inputs.size(); i++) {
            final RowType in = inputs.get(i);
            if (in.size() != rowType.size()) {
                throw new IllegalArgumentException("UNION ALL input " + i + " has " + in.size() + " columns " + in.names()
                        + ", input 0 has " + rowType.size() + " " + rowType.names()
                        + ": every input needs the same number of columns");
            }
            for (int c = 0; c < in.size(); c++) {
                if (!in.type(c).equals(rowType.type(c))) {
                    throw new IllegalArgumentException("UNION ALL input " + i + " column " + c + " '" + in.name(c)
                            + "' is " + in.type(c) + " but input 0's '" + rowType.name(c) + "' is " + rowType.type(c)
                            + ": project the inputs to the same column types");
                }
            }
            this.inputs.add(new ResultCollector(in));
        }
    }

    /** The output columns: the first input's. */
    public RowType rowType() {
        return rowType;
    }

    /** The sink ending input {@code i}'s pipeline. */
    public Sink<?> input(final int i) {
        return inputs.get(i);
    }

    /** Every input's batches, one morsel each (valid once every input's pipeline finished). */
    public Source output() {
        return new MaterializedSource(rowType, () -> {
            final List<Batch> all = new ArrayList<>();
            for (final ResultCollector in : inputs) {
                all.addAll(in.batches());
            }
            return all;
        }, false);
    }
}
