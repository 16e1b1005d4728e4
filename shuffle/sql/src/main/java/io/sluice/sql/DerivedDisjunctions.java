package io.sluice.sql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Adds to a filter (or an inner join's condition) the single-column predicates its disjunctions imply,
 * so they can move down to the scans: when every branch of an OR tests one column, the OR of those tests
 * holds wherever the OR does. TPC-H Q7's {@code (n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY') OR
 * (n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE')} gives {@code n1.n_name IN ('FRANCE', 'GERMANY')} and
 * the same of {@code n2}, which then filter each nation scan instead of waiting for the last join. The
 * condition itself is kept whole: what is added only lets rows go earlier that it would drop anyway.
 */
final class DerivedDisjunctions extends RelShuttleImpl {
    private DerivedDisjunctions() {
    }

    /** The tree with the implied predicates added to its filters and inner joins. */
    static RelNode apply(final RelNode rel) {
        return rel.accept(new DerivedDisjunctions());
    }

    @Override
    public RelNode visit(final LogicalFilter filter) {
        final LogicalFilter visited = (LogicalFilter) super.visit(filter);
        final RexNode condition = withImplied(visited.getCluster().getRexBuilder(), visited.getCondition());
        return condition == null ? visited : visited.copy(visited.getTraitSet(), visited.getInput(), condition);
    }

    @Override
    public RelNode visit(final LogicalJoin join) {
        final LogicalJoin visited = (LogicalJoin) super.visit(join);
        if (visited.getJoinType() != JoinRelType.INNER) {
            return visited;
        }
        final RexNode condition = withImplied(visited.getCluster().getRexBuilder(), visited.getCondition());
        return condition == null ? visited : visited.copy(visited.getTraitSet(), condition, visited.getLeft(),
                visited.getRight(), visited.getJoinType(), visited.isSemiJoinDone());
    }

    /** The condition and the predicates its disjunctions imply, or null when they imply none not there already. */
    private static RexNode withImplied(final RexBuilder rex, final RexNode condition) {
        final List<RexNode> conjuncts = RelOptUtil.conjunctions(condition);
        final List<RexNode> added = new ArrayList<>();
        for (final RexNode conjunct : conjuncts) {
            final List<RexNode> branches = RelOptUtil.disjunctions(conjunct);
            if (branches.size() < 2) {
                continue;
            }
            for (final RexNode implied : implied(rex, branches)) {
                if (!conjuncts.contains(implied) && !added.contains(implied)) {
                    added.add(implied);
                }
            }
        }
        if (added.isEmpty()) {
            return null;
        }
        final List<RexNode> all = new ArrayList<>(conjuncts);
        all.addAll(added);
        return RexUtil.composeConjunction(rex, all);
    }

    /**
     * For each column that every branch tests alone in some conjunct: the OR over the branches of the AND
     * of those tests.
     */
    private static List<RexNode> implied(final RexBuilder rex, final List<RexNode> branches) {
        // Column -> per branch, its single-column tests of that column.
        final Map<Integer, List<List<RexNode>>> tests = new LinkedHashMap<>();
        for (int b = 0; b < branches.size(); b++) {
            for (final RexNode term : RelOptUtil.conjunctions(branches.get(b))) {
                final ImmutableBitSet columns = RelOptUtil.InputFinder.bits(term);
                if (columns.cardinality() != 1 || RexUtil.containsCorrelation(term) || !RexUtil.isDeterministic(term)) {
                    continue;
                }
                final List<List<RexNode>> perBranch = tests.computeIfAbsent(columns.nth(0), c -> {
                    final List<List<RexNode>> lists = new ArrayList<>();
                    for (int i = 0; i < branches.size(); i++) {
                        lists.add(new ArrayList<>());
                    }
                    return lists;
                });
                perBranch.get(b).add(term);
            }
        }
        final List<RexNode> implied = new ArrayList<>();
        for (final List<List<RexNode>> perBranch : tests.values()) {
            if (perBranch.stream().anyMatch(List::isEmpty)) {
                continue;
            }
            final List<RexNode> ors = new ArrayList<>();
            for (final List<RexNode> branchTests : perBranch) {
                ors.add(RexUtil.composeConjunction(rex, branchTests));
            }
            implied.add(RexUtil.composeDisjunction(rex, ors));
        }
        return implied;
    }
}
