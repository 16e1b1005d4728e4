package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.explain.ExplainFragment;
import io.sluice.dispatch.explain.ExplainOperator;
import io.sluice.dispatch.explain.ExplainPlan;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Checks that an explained plan's operators form the tree seed 001's table numbers. */
final class ExplainTrees {
    private ExplainTrees() {
    }

    /** Ids in pre-order from 0, children one level deeper, exchanges paired, fragments cut at the exchanges. */
    static void assertTree(final ExplainPlan plan) {
        final List<ExplainOperator> ops = plan.operators();
        assertThat(plan.root().id()).isZero();
        assertThat(plan.root().depth()).isZero();
        final int[] next = {0};
        walk(plan, plan.root(), next);
        assertThat(next[0]).as("every operator reached once from the root").isEqualTo(ops.size());
        final Set<Integer> covered = new HashSet<>();
        for (final ExplainFragment f : plan.fragments()) {
            for (final int id : f.operators()) {
                assertThat(ops.get(id).fragment()).isEqualTo(f.id());
                assertThat(covered.add(id)).as("operator %d in one fragment", id).isTrue();
            }
        }
        assertThat(covered).hasSize(ops.size());
    }

    private static void walk(final ExplainPlan plan, final ExplainOperator o, final int[] next) {
        assertThat(o.id()).as("pre-order id").isEqualTo(next[0]++);
        for (final int c : o.children()) {
            final ExplainOperator child = plan.operators().get(c);
            assertThat(child.depth()).isEqualTo(o.depth() + 1);
            final boolean receives = o.exchange() != null && !o.exchange().out();
            if (receives) {
                assertThat(child.exchange()).isNotNull();
                assertThat(child.exchange().out()).isTrue();
                assertThat(child.exchange().id()).isEqualTo(o.exchange().id());
                assertThat(child.fragment()).as("a new fragment under EXCHANGE IN #%d", o.id()).isNotEqualTo(o.fragment());
            } else {
                assertThat(child.fragment()).isEqualTo(o.fragment());
            }
            walk(plan, child, next);
        }
    }

}
