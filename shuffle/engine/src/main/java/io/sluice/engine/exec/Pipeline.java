package io.sluice.engine.exec;

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
     * even inside an operator that emits many (a join that multiplies rows).
     */
    BatchConsumer chain(final BatchConsumer local, final Cancellation cancellation) {
        BatchConsumer next = checked(local, cancellation);
        for (int i = operators.size() - 1; i >= 0; i--) {
            next = checked(operators.get(i).create(next), cancellation);
        }
        return next;
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
