package io.sluice.shuffle.plan;

import io.sluice.shuffle.exec.Filter;
import io.sluice.shuffle.exec.HashAggregate;
import io.sluice.shuffle.exec.HashJoinBuild;
import io.sluice.shuffle.exec.HashJoinProbe;
import io.sluice.shuffle.exec.Limit;
import io.sluice.shuffle.exec.OperatorFactory;
import io.sluice.shuffle.exec.Pipeline;
import io.sluice.shuffle.exec.Projection;
import io.sluice.shuffle.exec.ResultCollector;
import io.sluice.shuffle.exec.Sink;
import io.sluice.shuffle.exec.Sort;
import io.sluice.shuffle.exec.Source;
import io.sluice.shuffle.exec.TableScan;
import io.sluice.shuffle.expr.RowType;
import io.sluice.storage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Cuts a plan tree into pipelines at its pipeline breakers, as DuckDB does: an aggregation, a
 * sort or a limit ends the pipeline feeding it and starts one reading its result; a join ends its
 * build side's pipeline and puts a probe operator into the probe side's pipeline, which then
 * depends on the build. The list is in an order that runs each pipeline after its dependencies;
 * the last one collects the result.
 */
public final class PipelineCompiler {
    private final Function<String, Table> tables;
    private final List<Pipeline> pipelines = new ArrayList<>();
    private int nextId;

    /** @param tables opens a stored table by name */
    public PipelineCompiler(final Function<String, Table> tables) {
        this.tables = tables;
    }

    /** The compiled query: its pipelines and the sink holding the result. */
    public record Compiled(List<Pipeline> pipelines, ResultCollector result) {
    }

    /** Compiles a plan. */
    public Compiled compile(final Plan plan) {
        final Open root = open(plan.node());
        final ResultCollector result = new ResultCollector(root.rowType);
        close(root, result, "result");
        return new Compiled(List.copyOf(pipelines), result);
    }

    /** A pipeline being built: its source, operators so far, their output columns, its dependencies. */
    private static final class Open {
        final Source source;
        final List<OperatorFactory> operators = new ArrayList<>();
        final List<Pipeline> dependencies = new ArrayList<>();
        RowType rowType;

        Open(final Source source, final Pipeline dependency) {
            this.source = source;
            this.rowType = source.rowType();
            if (dependency != null) {
                dependencies.add(dependency);
            }
        }

        void add(final OperatorFactory op) {
            operators.add(op);
            rowType = op.outputType();
        }
    }

    private Pipeline close(final Open open, final Sink<?> sink, final String what) {
        final Pipeline p = new Pipeline((nextId++) + " " + what, open.source, open.operators, sink, open.dependencies);
        pipelines.add(p);
        return p;
    }

    private Open open(final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return new Open(new TableScan(tables.apply(s.table()), s.columns(), s.pruning(), s.filter()), null);
        }
        if (node instanceof PlanNode.Filter f) {
            final Open in = open(f.input());
            in.add(new Filter(in.rowType, f.predicate()));
            return in;
        }
        if (node instanceof PlanNode.Project p) {
            final Open in = open(p.input());
            in.add(new Projection(in.rowType, p.items()));
            return in;
        }
        if (node instanceof PlanNode.Aggregation a) {
            final Open in = open(a.input());
            final HashAggregate sink = new HashAggregate(in.rowType, a.keys(), a.aggregates());
            return new Open(sink.output(), close(in, sink, "aggregate"));
        }
        if (node instanceof PlanNode.Join j) {
            final Open buildSide = open(j.build());
            final HashJoinBuild build = new HashJoinBuild(buildSide.rowType, j.buildKeys());
            final Pipeline buildPipeline = close(buildSide, build, "join build");
            final Open probe = open(j.probe());
            probe.add(new HashJoinProbe(probe.rowType, j.probeKeys(), build, j.type(), j.condition()));
            probe.dependencies.add(buildPipeline);
            return probe;
        }
        if (node instanceof PlanNode.OrderBy o) {
            final Open in = open(o.input());
            final Sort sink = new Sort(in.rowType, o.keys(), o.limit());
            return new Open(sink.output(), close(in, sink, "sort"));
        }
        final PlanNode.Limit l = (PlanNode.Limit) node;
        final Open in = open(l.input());
        final Limit sink = new Limit(in.rowType, l.limit());
        return new Open(sink.output(), close(in, sink, "limit"));
    }
}
