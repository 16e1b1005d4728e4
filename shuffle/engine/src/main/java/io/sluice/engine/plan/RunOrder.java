package io.sluice.engine.plan;

import io.sluice.engine.exec.ColocatedScan;
import io.sluice.engine.exec.Pipeline;
import io.sluice.engine.exec.PipelineExecutor;
import io.sluice.engine.exec.TableScan;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The order in which the {@link PipelineExecutor} runs compiled pipelines, one stage at a time (the
 * same on every CN): used to attach a runtime filter only to a scan whose stage runs after the
 * filter's build finished.
 */
final class RunOrder {
    private final List<Pipeline> pipelines;
    private final List<List<Pipeline>> stages;

    RunOrder(final List<Pipeline> pipelines) {
        this.pipelines = pipelines;
        this.stages = PipelineExecutor.runOrder(pipelines);
    }

    /** The pipeline reading a scan (directly or through a colocated scan), or null when none does. */
    Pipeline readerOf(final TableScan scan) {
        for (final Pipeline p : pipelines) {
            if (p.source() == scan || p.source() instanceof ColocatedScan c && c.scan() == scan) {
                return p;
            }
        }
        return null;
    }

    /** Every pipeline of the stages that run, and finish, before {@code p}'s stage starts. */
    Set<Pipeline> finishedBefore(final Pipeline p) {
        final Set<Pipeline> done = new HashSet<>();
        for (final List<Pipeline> stage : stages) {
            if (stage.contains(p)) {
                return done;
            }
            done.addAll(stage);
        }
        return done;
    }
}
