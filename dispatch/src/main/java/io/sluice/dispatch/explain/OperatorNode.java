package io.sluice.dispatch.explain;

import io.sluice.engine.expr.RowType;
import io.sluice.engine.plan.PlanNode;
import java.util.ArrayList;
import java.util.List;

/**
 * An operator of the explained tree while {@link ExplainBuilder} builds it: what it runs, its inputs,
 * where a run counts it, the plan node it was matched to and what the estimates made of it.
 */
final class OperatorNode {
    final OperatorKind kind;
    final Object exec;
    final List<OperatorNode> children = new ArrayList<>();
    RecordedExchange exchange;
    RowType output;
    int sourcePipeline = -1;
    int rowsPipeline = -1;
    int rowsStep;
    final List<int[]> timeSteps = new ArrayList<>();
    PlanNode plan;
    boolean topN;
    long est = -1;
    long width = 8;
    long cost;
    long cross = -1;
    Bucketing partitioning;
    String partitionLabel;
    int id;
    int depth;
    int fragment;

    OperatorNode(final OperatorKind kind, final Object exec) {
        this.kind = kind;
        this.exec = exec;
    }

    OperatorNode counted(final int pipeline, final int step) {
        rowsPipeline = pipeline;
        rowsStep = step;
        timeSteps.add(new int[] {pipeline, step});
        return this;
    }
}
