package io.sluice.engine.exec;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * The end of a right semi or anti join's probe pipeline: each worker's {@link HashJoinProbe} marks
 * the build rows its probe rows match, and once every worker is done the build rows marked (right
 * semi) or not (right anti) are the join's output ({@link #output()}). A partitioned build's rows
 * come out one morsel per bucket, tagged with it, as its buckets went in; a broadcast build's in one
 * morsel per batch. Every table's rows are emitted here, so a table must not be probed on another
 * process as well: a cluster partitions the build.
 */
public final class BuildRowMarks implements Sink<Operator> {
    private final HashJoinProbe probe;
    private final JoinBuild build;
    private final boolean semi;
    private List<List<Batch>> byTable;

    /**
     * @param type      {@link JoinType#RIGHT_SEMI} or {@link JoinType#RIGHT_ANTI}
     * @param condition an extra predicate over probe and build columns, or null
     */
    public BuildRowMarks(final RowType probeRows, final List<Expr> probeKeys, final JoinBuild build,
                         final JoinType type, final Expr condition) {
        if (!type.buildColumnsOnly()) {
            throw new IllegalArgumentException("build rows are marked for a right semi or anti join, not " + type);
        }
        this.probe = new HashJoinProbe(probeRows, probeKeys, build, type, condition);
        this.build = build;
        this.semi = type == JoinType.RIGHT_SEMI;
    }

    /** The build side whose rows are marked. */
    public JoinBuild build() {
        return build;
    }

    /** The build rows the join outputs, for the pipeline that reads them (valid after {@link #finish()}). */
    public Source output() {
        if (build.partitioned()) {
            return BucketSource.tagged(build.rowType(), () -> byTable);
        }
        return new MaterializedSource(build.rowType(), () -> byTable.isEmpty() ? List.of() : byTable.get(0), false);
    }

    @Override
    public Operator createLocal() {
        return probe.create(batch -> {
            throw new IllegalStateException("a right semi or anti join's probe emits no rows, got " + batch);
        });
    }

    @Override
    public void combine(final Operator local) {
        // The marks are in the build's tables already.
    }

    @Override
    public void finish() {
        final List<List<Batch>> out = new ArrayList<>();
        for (int t = 0; t < build.tableCount(); t++) {
            final List<Batch> rows = build.table(t).rowsMarked(semi);
            final int bucket = t;
            if (build.partitioned()) {
                rows.replaceAll(b -> b.withShuffleIdx(bucket));
            }
            out.add(rows);
        }
        byTable = out;
    }

    @Override
    public String toString() {
        return (semi ? "right semi" : "right anti") + " join marks of " + build;
    }
}
