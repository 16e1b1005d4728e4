package io.sluice.dispatch.explain;

import io.sluice.engine.exec.BuildRowMarks;
import io.sluice.engine.exec.ColocatedScan;
import io.sluice.engine.exec.Filter;
import io.sluice.engine.exec.HashAggregate;
import io.sluice.engine.exec.HashJoinProbe;
import io.sluice.engine.exec.NestedLoopJoinProbe;
import io.sluice.engine.exec.Limit;
import io.sluice.engine.exec.MergeSort;
import io.sluice.engine.exec.OperatorFactory;
import io.sluice.engine.exec.Pipeline;
import io.sluice.engine.exec.Projection;
import io.sluice.engine.exec.ResultCollector;
import io.sluice.engine.exec.Sink;
import io.sluice.engine.exec.Sort;
import io.sluice.engine.exec.SortedRuns;
import io.sluice.engine.exec.Source;
import io.sluice.engine.exec.TableScan;
import io.sluice.engine.plan.PipelineCompiler;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator tree of a compiled query, walked back from the pipeline ending in the result: a
 * pipeline's operators above its source; a breaker sink's output (aggregation, sort, limit) is the
 * sink's operator over the pipeline feeding it; a join probe and its build are one HASH JOIN over the
 * probe side, then the build side (a right semi or anti join's too, whose probe pipeline ends in marking
 * the build rows); an exchange is an EXCHANGE OUT (the sending pipeline's sink) under an
 * EXCHANGE IN (the receiving pipeline's source); a gathered merge sort is one EXCHANGE IN MERGE SORT DISTR.
 */
final class PipelineTree {
    private final String query;
    private final PipelineCompiler.Compiled compiled;
    private final List<Pipeline> pipelines;
    private final Map<Sink<?>, Integer> pipelineOfSink = new IdentityHashMap<>();
    private final Map<Sink<?>, RecordedExchange> bySink = new IdentityHashMap<>();
    private final Map<Source, RecordedExchange> bySource = new IdentityHashMap<>();
    private final OperatorNode[] sourceNodeOf;
    /** The pipelines whose sink's node is in the tree already. */
    private final java.util.Set<Integer> expanded = new java.util.HashSet<>();
    private final OperatorNode root;

    PipelineTree(final String query, final PipelineCompiler.Compiled compiled, final List<RecordedExchange> exchanges) {
        this.query = query;
        this.compiled = compiled;
        this.pipelines = compiled.pipelines();
        for (int p = 0; p < pipelines.size(); p++) {
            pipelineOfSink.put(pipelines.get(p).sink(), p);
        }
        for (final RecordedExchange e : exchanges) {
            bySink.put(e.sink(), e);
            bySource.put(e.source(), e);
        }
        this.sourceNodeOf = new OperatorNode[pipelines.size()];
        int result = -1;
        for (int p = 0; p < pipelines.size(); p++) {
            if (pipelines.get(p).sink() == compiled.result()) {
                result = p;
            }
        }
        if (result < 0) {
            throw new IllegalStateException("no pipeline of " + query + " ends in its result: " + pipelines);
        }
        this.root = chain(result, pipelines.get(result).operators().size() - 1);
    }

    /** The operator whose output is the result. */
    OperatorNode root() {
        return root;
    }

    /** The operator pipeline {@code p} starts from (its source, or the breaker whose output it reads). */
    OperatorNode sourceNodeOf(final int p) {
        return sourceNodeOf[p];
    }

    /** The node whose output is operator {@code i}'s of pipeline {@code p} (its source's for -1). */
    private OperatorNode chain(final int p, final int i) {
        if (i < 0) {
            return sourceNode(p);
        }
        final Pipeline pipeline = pipelines.get(p);
        final OperatorFactory op = pipeline.operators().get(i);
        final OperatorKind kind = op instanceof Filter ? OperatorKind.FILTER : op instanceof Projection ? OperatorKind.PROJECT
                : op instanceof HashJoinProbe ? OperatorKind.HASH_JOIN
                : op instanceof NestedLoopJoinProbe ? OperatorKind.NESTED_LOOP_JOIN : OperatorKind.OTHER;
        final OperatorNode n = new OperatorNode(kind, op).counted(p, i + 1);
        n.output = op.outputType();
        n.children.add(chain(p, i - 1));
        final Object joined = op instanceof HashJoinProbe probe ? probe.build()
                : op instanceof NestedLoopJoinProbe loop ? loop.build() : null;
        if (joined != null) {
            addBuild(n, joined, op);
        }
        return n;
    }

    /** Adds the build side of a join, the pipeline ending in {@code build}, as the node's second child. */
    private void addBuild(final OperatorNode n, final Object build, final Object join) {
        final Integer b = pipelineOfSink.get(build);
        if (b == null) {
            throw new IllegalStateException("the build of " + join + " ends no pipeline of " + query);
        }
        final Pipeline pipeline = pipelines.get(b);
        n.children.add(chain(b, pipeline.operators().size() - 1));
        n.timeSteps.add(new int[] {b, pipeline.operators().size() + 1});
    }

    private OperatorNode sourceNode(final int p) {
        final Pipeline pipeline = pipelines.get(p);
        final Source source = pipeline.source();
        final OperatorNode n;
        final RecordedExchange in = bySource.get(source);
        if (source instanceof TableScan || source instanceof ColocatedScan) {
            n = new OperatorNode(source instanceof TableScan ? OperatorKind.SCAN : OperatorKind.COLOCATED_SCAN, source).counted(p, 0);
            n.output = source.rowType();
        } else if (in != null) {
            n = new OperatorNode(OperatorKind.EXCHANGE_IN, source).counted(p, 0);
            n.exchange = in;
            n.output = source.rowType();
            n.children.add(outputOf(sender(in), -1));
        } else {
            final List<Integer> unionInputs = new ArrayList<>();
            for (final Pipeline d : pipeline.dependencies()) {
                if (d.sink() instanceof ResultCollector && d.sink() != compiled.result()) {
                    unionInputs.add(pipelineOfSink.get(d.sink()));
                }
            }
            if (!unionInputs.isEmpty()) {
                n = new OperatorNode(OperatorKind.UNION_ALL, source).counted(p, 0);
                n.output = source.rowType();
                for (final int u : unionInputs) {
                    n.children.add(chain(u, pipelines.get(u).operators().size() - 1));
                    n.timeSteps.add(new int[] {u, pipelines.get(u).operators().size() + 1});
                }
            } else if (pipeline.dependencies().isEmpty()) {
                n = new OperatorNode(OperatorKind.OTHER, source).counted(p, 0);
                n.output = source.rowType();
            } else {
                n = outputOf(pipelineOfSink.get(pipeline.dependencies().get(0).sink()), p);
            }
        }
        n.sourcePipeline = p;
        sourceNodeOf[p] = n;
        return n;
    }

    private int sender(final RecordedExchange e) {
        final Integer p = pipelineOfSink.get(e.sink());
        if (p == null) {
            throw new IllegalStateException("exchange " + e.id() + " of " + query + " ends no pipeline");
        }
        return p;
    }

    /** The node of pipeline {@code q}'s sink, whose output pipeline {@code reader} reads (-1: none does). */
    private OperatorNode outputOf(final int q, final int reader) {
        if (!expanded.add(q)) {
            // A group-by's groups read a second time (a WITH query read twice): computed once, shown once.
            final OperatorNode again = new OperatorNode(OperatorKind.OTHER, "the rows of pipeline "
                    + pipelines.get(q).name() + " again").counted(reader, 0);
            again.output = pipelines.get(reader).source().rowType();
            return again;
        }
        final Pipeline pipeline = pipelines.get(q);
        final Sink<?> sink = pipeline.sink();
        final int k = pipeline.operators().size();
        final RecordedExchange out = bySink.get(sink);
        final RecordedExchange gathered = bySource.get(pipeline.source());
        final OperatorNode n;
        if (out != null) {
            n = new OperatorNode(OperatorKind.EXCHANGE_OUT, sink).counted(q, k + 1);
            n.exchange = out;
            n.output = k == 0 ? pipeline.source().rowType() : pipeline.operators().get(k - 1).outputType();
            n.children.add(chain(q, k - 1));
            return n;
        }
        if (sink instanceof MergeSort && k == 0 && gathered != null) {
            n = new OperatorNode(OperatorKind.MERGE_SORT_IN, sink);
            n.exchange = gathered;
            n.timeSteps.add(new int[] {q, 0});
            n.timeSteps.add(new int[] {q, 1});
            n.output = ((MergeSort) sink).output().rowType();
            n.children.add(outputOf(sender(gathered), -1));
            n.sourcePipeline = q;
            sourceNodeOf[q] = n;
        } else if (sink instanceof BuildRowMarks marks) {
            // A right semi or anti join: the probe side marks, the build side's rows come out.
            n = new OperatorNode(OperatorKind.HASH_JOIN, sink);
            n.timeSteps.add(new int[] {q, k + 1});
            n.output = marks.output().rowType();
            n.children.add(chain(q, k - 1));
            addBuild(n, marks.build(), sink);
        } else {
            final OperatorKind kind = sink instanceof HashAggregate ? OperatorKind.GROUP_BY : sink instanceof Sort ? OperatorKind.SORT
                    : sink instanceof SortedRuns ? OperatorKind.SORTED_RUNS : sink instanceof MergeSort ? OperatorKind.MERGE_SORT
                    : sink instanceof Limit ? OperatorKind.LIMIT : OperatorKind.OTHER;
            n = new OperatorNode(kind, sink);
            n.timeSteps.add(new int[] {q, k + 1});
            n.output = sink instanceof HashAggregate a ? a.outputType()
                    : k == 0 ? pipeline.source().rowType() : pipeline.operators().get(k - 1).outputType();
            n.children.add(chain(q, k - 1));
        }
        if (reader >= 0) {
            n.rowsPipeline = reader;
            n.rowsStep = 0;
            n.timeSteps.add(new int[] {reader, 0});
        }
        return n;
    }


    /** A pipeline as lines: its name, its source, {@code -> } each operator, {@code => } its sink. */
    List<String> pipelineLines(final int p) {
        final Pipeline pipeline = pipelines.get(p);
        final List<String> lines = new ArrayList<>();
        lines.add("pipeline " + pipeline.name());
        final RecordedExchange in = bySource.get(pipeline.source());
        lines.add(in != null ? "EXCHANGE IN " + ExplainLabels.exchange(in) + " " + pipeline.source().rowType().names()
                : pipeline.source().toString());
        for (final OperatorFactory op : pipeline.operators()) {
            lines.add("-> " + op);
        }
        final RecordedExchange out = bySink.get(pipeline.sink());
        lines.add("=> " + (out != null ? "EXCHANGE OUT " + ExplainLabels.exchange(out) : pipeline.sink().toString()));
        return lines;
    }
}
