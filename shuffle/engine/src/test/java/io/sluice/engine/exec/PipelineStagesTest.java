package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Pipelines joined by a streaming exchange run at once, stage by stage: a receiver consumes while its
 * sender sends through a hand-off that holds one batch (run one after the other they would wait on
 * each other forever), stages wait for their dependencies, and a failing pipeline cancels the rest of
 * its stage, whose waits stop with the failure's cause.
 */
class PipelineStagesTest {
    private static final RowType K = new RowType(List.of("k"), List.of(DataType.INT64));
    private static final Batch END = Batch.of(new LongVector(ColumnType.INT64, new long[0], 0, null));

    /** A streaming exchange in miniature: a sink handing batches over one slot, a source taking them. */
    private static final class HandOff {
        final BlockingQueue<Batch> slot = new ArrayBlockingQueue<>(1);
        final Cancellation cancellation;

        HandOff(final Cancellation cancellation) {
            this.cancellation = cancellation;
        }

        void put(final Batch batch) {
            try {
                while (!slot.offer(batch, 1, TimeUnit.MILLISECONDS)) {
                    cancellation.check();
                }
            } catch (final InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        Sink<BatchConsumer> sink() {
            return new Sink<>() {
                @Override
                public BatchConsumer createLocal() {
                    return HandOff.this::put;
                }

                @Override
                public void combine(final BatchConsumer local) {
                }

                @Override
                public void finish() {
                    put(END);
                }
            };
        }

        Source source() {
            return new Source() {
                @Override
                public RowType rowType() {
                    return K;
                }

                @Override
                public int morselCount() {
                    return 1;
                }

                @Override
                public boolean ordered() {
                    return false;
                }

                @Override
                public Reader openReader() {
                    return (morsel, out) -> {
                        try {
                            while (true) {
                                final Batch b = slot.poll(1, TimeUnit.MILLISECONDS);
                                cancellation.check();
                                if (b == END) {
                                    return;
                                }
                                if (b != null) {
                                    out.accept(b);
                                }
                            }
                        } catch (final InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    };
                }
            };
        }
    }

    private static List<Batch> keys(final int batches) {
        final List<Batch> out = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            out.add(Batch.of(new LongVector(ColumnType.INT64, new long[] {b}, 1, null)));
        }
        return out;
    }

    private static long sum(final ResultCollector collector) {
        long sum = 0;
        for (final List<Object> row : collector.result().rows()) {
            sum += (Long) row.get(0);
        }
        return sum;
    }

    @Test
    void aReceiverRunsWhileItsSenderSendsThroughAHandOffOfOneBatch() {
        final Cancellation cancellation = new Cancellation();
        final HandOff handOff = new HandOff(cancellation);
        final Pipeline sender = new Pipeline("send", new MaterializedSource(K, () -> keys(100), false), List.of(),
                handOff.sink(), List.of());
        final ResultCollector out = new ResultCollector(K);
        final Pipeline receiver = new Pipeline("receive", handOff.source(), List.of(), out, List.of(), List.of(sender));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (PipelineExecutor executor = new PipelineExecutor(2)) {
                executor.run(List.of(sender, receiver), cancellation);
            }
        });
        assertThat(out.result().rowCount()).isEqualTo(100);
        assertThat(sum(out)).isEqualTo(99 * 100 / 2);
    }

    @Test
    void aStageStartsOnlyOnceItsDependenciesFinishedAndStagesRunInListOrder() {
        final Cancellation cancellation = new Cancellation();
        final List<String> started = Collections.synchronizedList(new ArrayList<>());
        final ResultCollector first = new ResultCollector(K);
        final Pipeline build = new Pipeline("build", recording(started, "build", keys(3)), List.of(), first, List.of());
        final HandOff handOff = new HandOff(cancellation);
        final Pipeline sender = new Pipeline("send", recording(started, "send", keys(5)), List.of(), handOff.sink(),
                List.of());
        final ResultCollector out = new ResultCollector(K);
        // The receiver depends on the build: its whole stage, sender included, waits for it.
        final Pipeline receiver = new Pipeline("receive", handOff.source(), List.of(), out, List.of(build),
                List.of(sender));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (PipelineExecutor executor = new PipelineExecutor(2)) {
                executor.run(List.of(sender, build, receiver), cancellation);
            }
        });
        assertThat(started).containsExactly("build", "send");
        assertThat(out.result().rowCount()).isEqualTo(5);
        assertThat(first.result().rowCount()).isEqualTo(3);
    }

    @Test
    void aFailingPipelineCancelsItsStageAndTheQueryFailsWithItsCause() {
        final Cancellation cancellation = new Cancellation();
        final HandOff handOff = new HandOff(cancellation);
        // The sender fails before sending anything: the receiver would wait forever without the cancel.
        final Sink<BatchConsumer> failing = new Sink<>() {
            @Override
            public BatchConsumer createLocal() {
                return batch -> {
                    throw new ArithmeticException("long overflow in the sender");
                };
            }

            @Override
            public void combine(final BatchConsumer local) {
            }

            @Override
            public void finish() {
            }
        };
        final Pipeline sender = new Pipeline("send", new MaterializedSource(K, () -> keys(1), false), List.of(),
                failing, List.of());
        final Pipeline receiver = new Pipeline("receive", handOff.source(), List.of(), new ResultCollector(K),
                List.of(), List.of(sender));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (PipelineExecutor executor = new PipelineExecutor(2)) {
                assertThatThrownBy(() -> executor.run(List.of(sender, receiver), cancellation))
                        .isInstanceOf(ArithmeticException.class).hasMessage("long overflow in the sender");
            }
        });
        assertThat(cancellation.isCancelled()).isTrue();
    }

    @Test
    void aCancelFromOutsideStopsAPipelineBetweenBatchesWithTheCancelsCause() {
        final Cancellation cancellation = new Cancellation();
        final ResultCollector out = new ResultCollector(K);
        final AtomicInteger seen = new AtomicInteger();
        final List<Batch> many = keys(1000);
        final Pipeline cancelling = new Pipeline("cancel midway", new MaterializedSource(K, () -> many, true),
                List.of(new OperatorFactory() {
                    @Override
                    public RowType outputType() {
                        return K;
                    }

                    @Override
                    public Operator create(final BatchConsumer next) {
                        return new Operator(next) {
                            @Override
                            public void accept(final Batch batch) {
                                seen.incrementAndGet();
                                if (((LongVector) batch.column(0)).get(0) == 10) {
                                    cancellation.cancel(new IllegalStateException("stopped by the coordinator"));
                                }
                                this.next.accept(batch);
                            }
                        };
                    }
                }), out, List.of());
        try (PipelineExecutor executor = new PipelineExecutor(1)) {
            assertThatThrownBy(() -> executor.run(List.of(cancelling), cancellation))
                    .isInstanceOf(IllegalStateException.class).hasMessage("stopped by the coordinator");
        }
        assertThat(seen.get()).as("batches the pipeline took: up to the one that cancelled").isEqualTo(11);
    }

    private static Source recording(final List<String> started, final String name, final List<Batch> batches) {
        return new MaterializedSource(K, () -> {
            started.add(name);
            return batches;
        }, false);
    }
}
