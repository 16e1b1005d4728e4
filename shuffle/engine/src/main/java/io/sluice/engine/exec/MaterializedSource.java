package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.List;
import java.util.function.Supplier;

/** The batches a finished sink produced (an aggregation's groups, sorted rows), one morsel each. */
public final class MaterializedSource implements Source {
    private final RowType rowType;
    private final Supplier<List<Batch>> batches;
    private final boolean ordered;
    private List<Batch> resolved;

    /** @param batches read when the pipeline starts, after the producing sink finished */
    public MaterializedSource(final RowType rowType, final Supplier<List<Batch>> batches, final boolean ordered) {
        this.rowType = rowType;
        this.batches = batches;
        this.ordered = ordered;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public int morselCount() {
        resolved = batches.get();
        return resolved.size();
    }

    @Override
    public boolean ordered() {
        return ordered;
    }

    @Override
    public Reader openReader() {
        return (morsel, out) -> out.accept(resolved.get(morsel));
    }

    @Override
    public String toString() {
        return "rows of the previous pipeline " + rowType.names();
    }
}
