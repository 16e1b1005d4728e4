package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An operator that holds rows back pushes them at the end of its worker's input
 * ({@link Operator#endOfInput()}), through the operators after it and before its local sink state is
 * combined; the operators after it hear of the end only then, so they may hold back what it pushed too.
 */
class EndOfInputTest {
    private static final RowType ROWS = new RowType(List.of("v"), List.of(DataType.INT64));

    /** Holds every batch back and pushes them all at the end of its input. */
    private static final class HoldBack implements OperatorFactory {
        @Override
        public RowType outputType() {
            return ROWS;
        }

        @Override
        public Operator create(final BatchConsumer next) {
            return new Operator(next) {
                private final List<Batch> held = new ArrayList<>();

                @Override
                public void accept(final Batch batch) {
                    held.add(batch);
                }

                @Override
                public void endOfInput() {
                    held.forEach(next::accept);
                    held.clear();
                }
            };
        }
    }

    @Test
    void rowsHeldBackToTheEndPassEveryLaterOperatorAndReachTheSink() {
        final List<Batch> input = new ArrayList<>();
        for (long v = 0; v < 50; v++) {
            input.add(Batch.of(new LongVector(ColumnType.INT64, new long[] {v}, 1, null)));
        }
        for (final boolean counted : new boolean[] {false, true}) {
            final ResultCollector out = new ResultCollector(ROWS);
            final Pipeline p = new Pipeline("held", new MaterializedSource(ROWS, () -> input, false),
                    List.of(new HoldBack(), new HoldBack()), out, List.of());
            final PipelineProfile profile = new PipelineProfile();
            try (PipelineExecutor executor = new PipelineExecutor(3)) {
                executor.run(List.of(p), Cancellation.never(), counted ? profile : null);
            }
            assertThat(out.result().rows()).extracting(r -> r.get(0))
                    .containsExactlyInAnyOrderElementsOf(input.stream().map(b -> (Object) ((LongVector) b.column(0))
                            .get(0)).toList());
            if (counted) {
                final PipelineCounters c = profile.counters(List.of(p)).get(0);
                // Out of the source, out of each operator, into the sink: every row at every step.
                for (int step = 0; step < c.steps(); step++) {
                    assertThat(c.rows(step)).as("rows of step %d", step).isEqualTo(50);
                    assertThat(c.nanos(step)).as("time of step %d", step).isNotNegative();
                }
            }
        }
    }
}
