package io.sluice.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Turns a correlated {@code [NOT] EXISTS} whose subquery is a filter over an uncorrelated input into
 * a semi (anti) join of the outer rows with that input, its correlated conjuncts becoming the join
 * condition over both sides and the others a filter on the input. TPC-H Q21's
 * {@code EXISTS (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <>
 * l1.l_suppkey)} becomes {@code l1 SEMI JOIN lineitem ON l_orderkey = l_orderkey AND l_suppkey <>
 * l_suppkey}: a hash join on the equality with the rest as its extra condition. Calcite's
 * decorrelator would instead compute the outer query once more for the distinct values it
 * correlates on and join the subquery with them (Q21's four-table join three times over).
 *
 * <p>It runs between subquery removal and decorrelation, on the shapes subquery removal makes: an
 * EXISTS is an inner correlate with {@code Aggregate(group {0}) <- Project(TRUE) <- Filter}, which
 * passes each outer row that has a match once; a NOT EXISTS is the same under a left correlate and
 * a filter testing its marker {@code IS NULL}, which passes the outer rows without one. The marker
 * column stays in the output (TRUE, or a NULL the filter's test then always passes) so nothing
 * above moves. Any other correlate is left to the decorrelator.
 */
final class CorrelatedExists extends RelShuttleImpl {
    private CorrelatedExists() {
    }

    /** The tree with each such correlate replaced by a semi or anti join. */
    static RelNode apply(final RelNode rel) {
        return rel.accept(new CorrelatedExists());
    }

    @Override
    public RelNode visit(final LogicalCorrelate correlate) {
        final LogicalCorrelate visited = (LogicalCorrelate) super.visit(correlate);
        if (visited.getJoinType() != JoinRelType.INNER) {
            return visited;
        }
        final RelNode semi = join(visited, JoinRelType.SEMI);
        if (semi == null) {
            return visited;
        }
        final RexBuilder rex = visited.getCluster().getRexBuilder();
        return withMarker(semi, visited, rex.makeLiteral(true));
    }

    @Override
    public RelNode visit(final LogicalFilter filter) {
        final LogicalFilter visited = (LogicalFilter) super.visit(filter);
        if (!(visited.getInput() instanceof LogicalCorrelate correlate) || correlate.getJoinType() != JoinRelType.LEFT) {
            return visited;
        }
        final int marker = correlate.getLeft().getRowType().getFieldCount();
        final List<RexNode> conjuncts = new ArrayList<>(RelOptUtil.conjunctions(visited.getCondition()));
        final RexBuilder rex = visited.getCluster().getRexBuilder();
        boolean tested = false;
        for (int i = 0; i < conjuncts.size(); i++) {
            if (isNullOf(conjuncts.get(i), marker)) {
                conjuncts.set(i, rex.makeLiteral(true));
                tested = true;
            }
        }
        if (!tested || correlate.getRowType().getFieldCount() != marker + 1) {
            return visited;
        }
        final RelNode anti = join(correlate, JoinRelType.ANTI);
        if (anti == null) {
            return visited;
        }
        final RelDataTypeField field = correlate.getRowType().getFieldList().get(marker);
        final RelNode unmatched = withMarker(anti, correlate, rex.makeNullLiteral(field.getType()));
        return visited.copy(visited.getTraitSet(), unmatched, RexUtil.composeConjunction(rex, conjuncts));
    }

    private static boolean containsCorrelate(final RelNode rel) {
        if (rel instanceof LogicalCorrelate) {
            return true;
        }
        for (final RelNode input : rel.getInputs()) {
            if (containsCorrelate(input)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isNullOf(final RexNode conjunct, final int field) {
        return conjunct.getKind() == SqlKind.IS_NULL && ((RexCall) conjunct).getOperands().get(0) instanceof RexInputRef ref
                && ref.getIndex() == field;
    }

    /**
     * The semi or anti join of the correlate's outer rows with its subquery's input, or null when the
     * subquery is not an existence test of a correlated filter over an uncorrelated input.
     */
    private static RelNode join(final LogicalCorrelate correlate, final JoinRelType type) {
        if (!(correlate.getRight() instanceof LogicalAggregate aggregate) || !aggregate.getAggCallList().isEmpty()
                || aggregate.getGroupCount() != 1 || aggregate.getRowType().getFieldCount() != 1
                || !(aggregate.getInput() instanceof LogicalProject project) || project.getProjects().size() != 1
                || !(project.getProjects().get(0) instanceof RexLiteral)
                || !(project.getInput() instanceof LogicalFilter filter)) {
            return null;
        }
        final RelNode input = filter.getInput();
        if (!RelOptUtil.getVariablesUsed(input).isEmpty() || containsCorrelate(correlate.getLeft())) {
            // Below a correlate the decorrelator replaces, the outer rows gain fields, and the decorrelator
            // would not shift this join's condition over them (TPC-DS Q69's second NOT EXISTS): it takes both.
            return null;
        }
        final CorrelationId id = correlate.getCorrelationId();
        final RelNode left = correlate.getLeft();
        final int shift = left.getRowType().getFieldCount();
        final RexBuilder rex = correlate.getCluster().getRexBuilder();
        final List<RexNode> onInput = new ArrayList<>();
        final List<RexNode> onBoth = new ArrayList<>();
        for (final RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            if (RexUtil.containsCorrelation(conjunct)) {
                final RexNode joined = overBothSides(conjunct, id, left, shift);
                if (joined == null) {
                    return null;
                }
                onBoth.add(joined);
            } else {
                onInput.add(conjunct);
            }
        }
        if (onBoth.isEmpty()) {
            return null;
        }
        final RelNode right = onInput.isEmpty() ? input
                : filter.copy(filter.getTraitSet(), input, RexUtil.composeConjunction(rex, onInput));
        return LogicalJoin.create(left, right, List.of(), RexUtil.composeConjunction(rex, onBoth), java.util.Set.of(),
                type);
    }

    /**
     * A conjunct over the subquery's input and the correlation's fields rewritten over (outer, input)
     * fields, or null when it reads another correlation or a field the outer side lacks.
     */
    private static RexNode overBothSides(final RexNode conjunct, final CorrelationId id, final RelNode left,
                                         final int shift) {
        final boolean[] foreign = {false};
        final RexNode rewritten = conjunct.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(final RexInputRef ref) {
                return new RexInputRef(ref.getIndex() + shift, ref.getType());
            }

            @Override
            public RexNode visitFieldAccess(final RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v) {
                    final int index = access.getField().getIndex();
                    if (!v.id.equals(id) || index >= shift
                            || !left.getRowType().getFieldList().get(index).getType().equals(access.getType())) {
                        foreign[0] = true;
                        return access;
                    }
                    return new RexInputRef(index, access.getType());
                }
                return super.visitFieldAccess(access);
            }

            @Override
            public RexNode visitCorrelVariable(final RexCorrelVariable variable) {
                foreign[0] = true;
                return variable;
            }
        });
        return foreign[0] ? null : rewritten;
    }

    /** The join's rows (the outer fields) with the correlate's marker column after them, holding {@code value}. */
    private static RelNode withMarker(final RelNode join, final LogicalCorrelate correlate, final RexNode value) {
        final RexBuilder rex = correlate.getCluster().getRexBuilder();
        final List<RexNode> projects = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final RelDataTypeField f : join.getRowType().getFieldList()) {
            projects.add(rex.makeInputRef(f.getType(), f.getIndex()));
            names.add(f.getName());
        }
        final RelDataTypeField marker = correlate.getRowType().getFieldList().get(projects.size());
        projects.add(value.getType().equals(marker.getType()) ? value : rex.makeCast(marker.getType(), value, true, false));
        names.add(marker.getName());
        return LogicalProject.create(join, List.of(), projects, names, java.util.Set.of());
    }
}
