package io.sluice.shuffle.exec;

import java.util.List;

/**
 * A source, streaming operators and a sink, run by all workers over the source's morsels. It
 * starts only after the pipelines it depends on finished (a join's build pipeline before its
 * probe pipeline, an aggregation's pipeline before the pipeline reading its result).
 */
public record Pipeline(String name, Source source, List<OperatorFactory> operators, Sink<?> sink,
                       List<Pipeline> dependencies) {
    public Pipeline {
        operators = List.copyOf(operators);
        dependencies = List.copyOf(dependencies);
    }

    /** A chain of operator instances for one worker, ending in the given local sink state. */
    BatchConsumer chain(final BatchConsumer local) {
        BatchConsumer next = local;
        for (int i = operators.size() - 1; i >= 0; i--) {
            next = operators.get(i).create(next);
        }
        return next;
    }

    @Override
    public String toString() {
        return "pipeline " + name;
    }
}
