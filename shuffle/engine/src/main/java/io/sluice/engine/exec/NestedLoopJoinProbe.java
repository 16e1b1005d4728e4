package io.sluice.engine.exec;

import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;

/**
 * The probe side of a nested-loop join, for join conditions without equality keys ({@code a.x <
 * b.y}, a BETWEEN, a cross join): each probe batch meets every row of a finished
 * {@link NestedLoopJoinBuild}. The pairs go build row by build row in chunks of at most
 * {@link Block#MAX_ROWS} (one build row against the whole probe batch, or several against a small
 * one); the condition is evaluated over each chunk at once as one batch of probe columns then
 * build columns, through the same {@link Evaluator}s as every other expression. A chunk of one
 * build row uses the probe batch's own vectors; only the build row is repeated. INNER and LEFT emit
 * the passing pairs (LEFT also each unmatched probe row with NULL build columns), SEMI and ANTI the
 * probe rows with and without a passing pair; SEMI and ANTI stop early once every probe row of the
 * batch matched. A null condition is a cross join.
 */
public final class NestedLoopJoinProbe implements OperatorFactory {
    private final RowType probe;
    private final NestedLoopJoinBuild build;
    private final JoinType type;
    private final Expr condition;
    private final RowType joined;

    /** @param condition a predicate over probe and build columns, or null (every pair matches) */
    /** The build side it probes. */
    public NestedLoopJoinBuild build() {
        return build;
    }

    public NestedLoopJoinProbe(final RowType probe, final NestedLoopJoinBuild build, final JoinType type,
                               final Expr condition) {
        if (type == JoinType.NULL_AWARE_ANTI) {
            throw new IllegalArgumentException("a nested-loop join has no keys, so it cannot be a null-aware anti"
                    + " join (NOT IN over a key): plan NOT IN as a hash join on its key");
        }
        this.probe = probe;
        this.build = build;
        this.type = type;
        this.condition = condition;
        this.joined = probe.concat(build.rowType());
        if (condition != null) {
            condition.bind(joined);
        }
    }

    @Override
    public RowType outputType() {
        return type.probeColumnsOnly() ? probe : joined;
    }

    @Override
    public Operator create(final BatchConsumer next) {
        return new Probe(next);
    }

    @Override
    public String toString() {
        return type + " nested loop join" + (condition == null ? "" : " on " + condition);
    }

    private final class Probe extends Operator {
        private final Evaluator evaluator = condition == null ? null : condition.bind(joined);
        private final int[] probeRows = new int[Block.MAX_ROWS];
        private final int[] buildRows = new int[Block.MAX_ROWS];
        private final int[] scratch = new int[Block.MAX_ROWS];
        private final boolean[] matched = new boolean[Block.MAX_ROWS];
        private final boolean[] all = new boolean[Block.MAX_ROWS];

        Probe(final BatchConsumer next) {
            super(next);
            Arrays.fill(all, true);
        }

        @Override
        public void accept(final Batch batch) {
            final int n = batch.rowCount();
            if (n == 0) {
                return;
            }
            final int m = build.rowCount();
            Arrays.fill(matched, 0, n, false);
            int matchedRows = 0;
            final boolean rowsOnly = type == JoinType.SEMI || type == JoinType.ANTI;
            final int perChunk = Math.max(1, Block.MAX_ROWS / n);
            for (int from = 0; from < m && !(rowsOnly && matchedRows == n); from += perChunk) {
                final int to = Math.min(m, from + perChunk);
                final Batch pairs = pairs(batch, n, from, to);
                final int count = pairs.rowCount();
                final boolean[] pass = evaluator == null ? all : evaluator.trues(pairs);
                for (int p = 0; p < count; p++) {
                    if (pass[p] && !matched[probeRows[p]]) {
                        matched[probeRows[p]] = true;
                        matchedRows++;
                    }
                }
                if (!rowsOnly) {
                    final Batch out = Vectors.select(pairs, pass, scratch);
                    if (out != null) {
                        emit(batch, out);
                    }
                }
            }
            switch (type) {
                case SEMI -> emitSelected(batch, matched);
                case ANTI -> {
                    for (int i = 0; i < n; i++) {
                        matched[i] = !matched[i];
                    }
                    emitSelected(batch, matched);
                }
                case LEFT -> unmatched(batch, n);
                default -> { }
            }
        }

        /** Probe rows {@code 0..n)} paired with build rows {@code [from, to)}, build row by build row. */
        private Batch pairs(final Batch batch, final int n, final int from, final int to) {
            final int count = n * (to - from);
            for (int b = from, k = 0; b < to; b++) {
                for (int i = 0; i < n; i++, k++) {
                    probeRows[k] = i;
                    buildRows[k] = b;
                }
            }
            final ColumnVector[] columns = new ColumnVector[joined.size()];
            final int probeColumns = probe.size();
            for (int c = 0; c < probeColumns; c++) {
                columns[c] = to - from == 1 ? batch.column(c) : Vectors.gatherPresent(batch.column(c), probeRows, count);
            }
            for (int c = 0; c < build.rowType().size(); c++) {
                columns[probeColumns + c] = Vectors.gatherPresent(build.column(c), buildRows, count);
            }
            return Batch.of(columns);
        }

        /** LEFT: each probe row without a passing pair, with NULL build columns. */
        private void unmatched(final Batch batch, final int n) {
            int count = 0;
            for (int i = 0; i < n; i++) {
                if (!matched[i]) {
                    probeRows[count] = i;
                    buildRows[count] = -1;
                    count++;
                }
            }
            if (count == 0) {
                return;
            }
            final ColumnVector[] columns = new ColumnVector[joined.size()];
            final int probeColumns = probe.size();
            for (int c = 0; c < probeColumns; c++) {
                columns[c] = Vectors.gatherPresent(batch.column(c), probeRows, count);
            }
            for (int c = 0; c < build.rowType().size(); c++) {
                columns[probeColumns + c] = Vectors.gather(build.column(c), buildRows, count);
            }
            emit(batch, Batch.of(columns));
        }

        /** Passes on joined rows in the probe batch's bucket, as a hash join's probe does. */
        private void emit(final Batch probeBatch, final Batch out) {
            final int bucket = probeBatch.shuffleIdx();
            next.accept(bucket == Batch.NO_SHUFFLE_IDX ? out : out.withShuffleIdx(bucket));
        }

        private void emitSelected(final Batch batch, final boolean[] keep) {
            final Batch kept = Vectors.select(batch, keep, scratch);
            if (kept != null) {
                next.accept(kept);
            }
        }
    }
}
