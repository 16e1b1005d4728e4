package io.sluice.sql;

import io.sluice.engine.exec.SortKey;
import io.sluice.engine.exec.WindowFrame;
import io.sluice.engine.exec.WindowFunction;
import io.sluice.engine.exec.WindowFunctionType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.plan.Plan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;

/**
 * Window functions as Sluice plans: Calcite's window operator (made from the {@code OVER} calls of a
 * projection by {@link RulePhases}) becomes one window node per group of functions sharing a
 * PARTITION BY, ORDER BY and frame. Sluice computes ROW_NUMBER, RANK, DENSE_RANK, and SUM, COUNT,
 * AVG, MIN and MAX over the frames from UNBOUNDED PRECEDING to CURRENT ROW (RANGE: with the row's
 * peers; ROWS: up to the row) or to UNBOUNDED FOLLOWING (the whole partition); anything else is an
 * UNSUPPORTED {@link SqlException} naming it.
 */
final class WindowFunctions {
    private final RelTranslator translator;

    WindowFunctions(final RelTranslator translator) {
        this.translator = translator;
    }

    Relation plan(final Window w) {
        final Relation in = translator.translate(w.getInput());
        final int inputFields = w.getInput().getRowType().getFieldCount();
        final List<String> columns = new ArrayList<>(in.columns());
        final Set<String> doubles = new HashSet<>(in.doubles());
        Plan plan = in.plan();
        for (final Window.Group group : w.groups) {
            final List<String> partitionBy = new ArrayList<>();
            for (final int k : group.keys) {
                partitionBy.add(in.column(k));
            }
            final List<SortKey> orderBy = new ArrayList<>();
            for (final RelFieldCollation fc : group.orderKeys.getFieldCollations()) {
                if (fc.getFieldIndex() >= inputFields) {
                    throw SqlException.unsupported("a window ordered by a constant is not supported: order by columns");
                }
                orderBy.add(new SortKey(in.column(fc.getFieldIndex()),
                        fc.direction == RelFieldCollation.Direction.DESCENDING,
                        fc.nullDirection == RelFieldCollation.NullDirection.FIRST));
            }
            final List<WindowFunction> functions = new ArrayList<>();
            for (final Window.RexWinAggCall call : group.aggCalls) {
                final String name = translator.names().fresh(call.getOperator().getName().toLowerCase(Locale.ROOT));
                final WindowFunction f = function(call, group, in, inputFields, name, w);
                functions.add(f);
                columns.add(name);
                if (f.type() == WindowFunctionType.AVG) {
                    doubles.add(name);
                }
            }
            plan = plan.window(partitionBy, orderBy, functions.toArray(new WindowFunction[0]));
        }
        final org.apache.calcite.rel.type.RelDataType type = w.getRowType();
        return new Relation(plan, columns, doubles, in.rows(), Arrays.copyOf(in.stats(), type.getFieldCount()));
    }

    private static WindowFunction function(final Window.RexWinAggCall call, final Window.Group group,
                                           final Relation in, final int inputFields, final String name,
                                           final Window w) {
        final String sql = call.getOperator().getName();
        if (call.distinct) {
            throw SqlException.unsupported(sql + "(DISTINCT ...) OVER (...) is not supported: window aggregates"
                    + " read every row of their frame");
        }
        final WindowFunctionType type = switch (call.getOperator().getKind()) {
            case ROW_NUMBER -> WindowFunctionType.ROW_NUMBER;
            case RANK -> WindowFunctionType.RANK;
            case DENSE_RANK -> WindowFunctionType.DENSE_RANK;
            case SUM, SUM0 -> WindowFunctionType.SUM;
            case COUNT -> call.getOperands().isEmpty() ? WindowFunctionType.COUNT_STAR : WindowFunctionType.COUNT;
            case AVG -> WindowFunctionType.AVG;
            case MIN -> WindowFunctionType.MIN;
            case MAX -> WindowFunctionType.MAX;
            default -> throw SqlException.unsupported("the window function " + sql + " is not supported; Sluice"
                    + " computes ROW_NUMBER, RANK, DENSE_RANK, SUM, COUNT, AVG, MIN and MAX over (...)");
        };
        if (type.ranking()) {
            // Without ORDER BY, SQL leaves ROW_NUMBER's order to the engine and every row ranks 1.
            return WindowFunction.ranking(type, name);
        }
        Expr argument = null;
        if (type != WindowFunctionType.COUNT_STAR) {
            if (call.getOperands().size() != 1 || !(call.getOperands().get(0) instanceof RexInputRef ref)
                    || ref.getIndex() >= inputFields) {
                throw SqlException.unsupported(sql + " OVER (...) of " + call.getOperands() + " is not supported:"
                        + " a window aggregate takes one column or expression of the row");
            }
            argument = Expr.col(in.column(ref.getIndex()));
        }
        return WindowFunction.aggregate(type, argument, frame(group, w, inputFields), name);
    }

    /** The frame of a group of window aggregates, or an UNSUPPORTED error naming it. */
    private static WindowFrame frame(final Window.Group group, final Window w, final int inputFields) {
        final RexWindowBound lower = group.lowerBound;
        final RexWindowBound upper = group.upperBound;
        if (lower.isUnbounded() && lower.isPreceding()) {
            if (upper.isCurrentRow()) {
                return group.isRows ? WindowFrame.ROWS_TO_CURRENT_ROW : WindowFrame.RANGE_TO_CURRENT_ROW;
            }
            if (upper.isUnbounded() && upper.isFollowing()) {
                return WindowFrame.PARTITION;
            }
        }
        throw SqlException.unsupported("the window frame " + (group.isRows ? "ROWS" : "RANGE") + " BETWEEN "
                + bound(lower, w, inputFields) + " AND " + bound(upper, w, inputFields) + " is not supported: Sluice"
                + " computes frames from UNBOUNDED PRECEDING to CURRENT ROW or to UNBOUNDED FOLLOWING");
    }

    /** A bound as SQL writes it; an offset is one of the window's constants. */
    private static String bound(final RexWindowBound b, final Window w, final int inputFields) {
        if (b.isCurrentRow()) {
            return "CURRENT ROW";
        }
        RexNode offset = b.getOffset();
        if (offset instanceof RexInputRef ref && ref.getIndex() >= inputFields
                && ref.getIndex() - inputFields < w.constants.size()) {
            offset = w.constants.get(ref.getIndex() - inputFields);
        }
        return (b.isUnbounded() ? "UNBOUNDED" : String.valueOf(offset)) + (b.isPreceding() ? " PRECEDING" : " FOLLOWING");
    }
}
