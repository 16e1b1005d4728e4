package io.sluice.engine.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The nodes of a plan tree in a fixed order, which the planner decides in and the codec numbers them by:
 * a join's probe side before its build side, a union's inputs in order.
 */
final class PlanWalk {
    private PlanWalk() {
    }

    /** The inputs of a node, in order. */
    static List<PlanNode> inputs(final PlanNode node) {
        if (node instanceof PlanNode.Filter f) {
            return List.of(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return List.of(p.input());
        }
        if (node instanceof PlanNode.Aggregation a) {
            return List.of(a.input());
        }
        if (node instanceof PlanNode.Join j) {
            return List.of(j.probe(), j.build());
        }
        if (node instanceof PlanNode.OrderBy o) {
            return List.of(o.input());
        }
        if (node instanceof PlanNode.Limit l) {
            return List.of(l.input());
        }
        if (node instanceof PlanNode.UnionAll u) {
            return u.inputs();
        }
        if (node instanceof PlanNode.Window w) {
            return List.of(w.input());
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            return List.of(j.probe(), j.build());
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return List.of(a.input());
        }
        return List.of();
    }

    /** Every node, each before its inputs (a node reached twice is listed twice). */
    static List<PlanNode> preOrder(final PlanNode root) {
        final List<PlanNode> out = new ArrayList<>();
        pre(root, out);
        return out;
    }

    /** Every node, each after its inputs: the order in which a decision can read the decisions below it. */
    static List<PlanNode> postOrder(final PlanNode root) {
        final List<PlanNode> out = new ArrayList<>();
        post(root, out);
        return out;
    }

    private static void pre(final PlanNode node, final List<PlanNode> out) {
        out.add(node);
        for (final PlanNode in : inputs(node)) {
            pre(in, out);
        }
    }

    private static void post(final PlanNode node, final List<PlanNode> out) {
        for (final PlanNode in : inputs(node)) {
            post(in, out);
        }
        out.add(node);
    }
}
