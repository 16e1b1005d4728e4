package io.sluice.engine.exec;

import io.sluice.shuffle.operator.Batch;
import java.util.List;

/**
 * A source, streaming operators and a sink, run by workers over the source's morsels. It starts
 * only after the pipelines it depends on finished (a join's build pipeline before its probe
 * pipeline, an aggregation's pipeline before the pipeline reading its result). A pipeline whose
 * source is a streaming exchange runs at the same time as the pipelines that feed it through the
 * exchange ({@code streamedFrom}): it consumes their batches as they arrive instead of after they
 * finished.
 *
 * @param dependencies pipelines that must finish before this one starts
 * @param streamedFrom pipelines whose sink is the streaming exchange this one's source reads
 */
public record Pipeline(String name, Source source, List<OperatorFactory> operators, Sink<?> sink,
                       List<Pipeline> dependencies, List<Pipeline> streamedFrom) {
    public Pipeline {
        operators = List.copyOf(operators);
        dependencies = List.copyOf(dependencies);
        streamedFrom = List.copyOf(streamedFrom);
    }

    /** A pipeline that no exchange streams into. */
    public Pipeline(final String name, final Source source, final List<OperatorFactory> operators, final Sink<?> sink,
                    final List<Pipeline> dependencies) {
        this(name, source, operators, sink, dependencies, List.of());
    }

    /**
     * A chain of operator instances for one worker, ending in the given local sink state; every
     * batch passed on checks {@code cancellation} first, so a cancelled query stops between batches
     * even inside an operator that emits many (a join that multiplies rows). Operator {@code i}'s instance
     * goes in {@code created[i]}.
     */
    BatchConsumer chain(final BatchConsumer local, final Cancellation cancellation, final Operator[] created) {
        BatchConsumer next = checked(local, cancellation);
        for (int i = operators.size() - 1; i >= 0; i--) {
            created[i] = operators.get(i).create(next);
            next = checked(created[i], cancellation);
        }
        return next;
    }

    /**
     * As {@link #chain(BatchConsumer, Cancellation, Operator[])}, counting at each step: {@code rows[i]} the rows pushed
     * into consumer {@code i} (operator {@code i}, the local sink state last), {@code inclusiveNanos[i]} the
     * time inside that consumer, the steps after it included. Both arrays have {@code operators().size() + 1}
     * entries and belong to one worker; operator {@code i}'s instance goes in {@code created[i]}.
     */
    BatchConsumer countedChain(final BatchConsumer local, final Cancellation cancellation, final long[] rows,
                               final long[] inclusiveNanos, final Operator[] created) {
        BatchConsumer next = new Counted(local, cancellation, operators.size(), rows, inclusiveNanos);
        for (int i = operators.size() - 1; i >= 0; i--) {
            created[i] = operators.get(i).create(next);
            next = new Counted(created[i], cancellation, i, rows, inclusiveNanos);
        }
        return next;
    }

    /** One step's counting: the rows of each batch passed in and the clock around the call, once per batch. */
    private static final class Counted implements BatchConsumer {
        private final BatchConsumer next;
        private final Cancellation cancellation;
        private final int step;
        private final long[] rows;
        private final long[] nanos;

        Counted(final BatchConsumer next, final Cancellation cancellation, final int step, final long[] rows,
                final long[] nanos) {
            this.next = next;
            this.cancellation = cancellation;
            this.step = step;
            this.rows = rows;
            this.nanos = nanos;
        }

        @Override
        public void accept(final Batch batch) {
            cancellation.check();
            rows[step] += batch.rowCount();
            final long start = System.nanoTime();
            next.accept(batch);
            nanos[step] += System.nanoTime() - start;
        }
    }

    private static BatchConsumer checked(final BatchConsumer next, final Cancellation cancellation) {
        return batch -> {
            cancellation.check();
            next.accept(batch);
        };
    }

    @Override
    public String toString() {
        return "pipeline " + name;
    }
}
