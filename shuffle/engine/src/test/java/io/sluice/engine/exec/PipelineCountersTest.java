package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PipelineProfile} counts, per step of a pipeline run by several workers, the rows each step
 * pushed on: the source's rows, an operator's output (here one that emits each batch twice), the rows
 * the sink took, the same as the rows the sink holds; time is never negative; a pipeline run without a
 * profile counts nothing, and two CNs' counters sum step by step.
 */
class PipelineCountersTest {
    private static final RowType K = new RowType(List.of("k"), List.of(DataType.INT64));

    /** Pushes every batch on twice. */
    private static final class Twice implements OperatorFactory {
        @Override
        public RowType outputType() {
            return K;
        }

        @Override
        public Operator create(final BatchConsumer next) {
            return new Operator(next) {
                @Override
                public void accept(final Batch batch) {
                    next.accept(batch);
                    next.accept(batch);
                }
            };
        }
    }

    @Test
    void eachStepCountsTheRowsItPushedOn() {
        final Random random = new Random(42);
        for (int trial = 0; trial < 5; trial++) {
            final List<Batch> batches = new ArrayList<>();
            long rows = 0;
            for (int b = random.nextInt(30); b > 0; b--) {
                final int n = 1 + random.nextInt(500);
                final long[] values = new long[n];
                for (int i = 0; i < n; i++) {
                    values[i] = random.nextLong();
                }
                batches.add(Batch.of(new LongVector(ColumnType.INT64, values, n, null)));
                rows += n;
            }
            final ResultCollector result = new ResultCollector(K);
            final Pipeline p = new Pipeline("twice", new MaterializedSource(K, () -> batches, false),
                    List.of(new Twice()), result, List.of());
            final PipelineProfile profile = new PipelineProfile();
            try (PipelineExecutor executor = new PipelineExecutor(3)) {
                executor.run(List.of(p), Cancellation.never(), profile);
            }
            final PipelineCounters c = profile.counters(List.of(p)).get(0);
            assertThat(c.steps()).isEqualTo(3);
            assertThat(new long[] {c.rows(0), c.rows(1), c.rows(2)}).containsExactly(rows, 2 * rows, 2 * rows);
            assertThat(result.result().rowCount()).isEqualTo(2 * rows);
            for (int s = 0; s < c.steps(); s++) {
                assertThat(c.nanos(s)).as("step %d", s).isNotNegative();
            }
            assertThat(c.plus(c).rows(1)).isEqualTo(4 * rows);
        }
    }

    @Test
    void aPipelineRunWithoutAProfileCountsNothing() {
        final ResultCollector result = new ResultCollector(K);
        final Pipeline p = new Pipeline("plain", new MaterializedSource(K, List::of, false), List.of(new Twice()), result,
                List.of());
        final PipelineProfile unused = new PipelineProfile();
        try (PipelineExecutor executor = new PipelineExecutor(2)) {
            executor.run(List.of(p));
        }
        assertThat(unused.counters(List.of(p)).get(0)).isEqualTo(PipelineCounters.zero(3));
    }
}
