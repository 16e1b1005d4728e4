package io.sluice.sql;

import io.sluice.engine.exec.FrameBound;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.exec.WindowFrame;
import io.sluice.engine.exec.WindowFunction;
import io.sluice.engine.exec.WindowFunctionType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.plan.Plan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Window functions as Sluice plans: Calcite's window operator (made from the {@code OVER} calls of a
 * projection by {@link RulePhases}) becomes one window node per group of functions sharing a
 * PARTITION BY, ORDER BY and frame. Sluice computes ROW_NUMBER, RANK, DENSE_RANK, and SUM, COUNT,
 * AVG, MIN and MAX over ROWS and RANGE frames between any two bounds (UNBOUNDED, an offset
 * PRECEDING or FOLLOWING, CURRENT ROW); anything else is an UNSUPPORTED {@link SqlException}
 * naming it.
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

    /**
     * The frame of a group of window aggregates, or an UNSUPPORTED error naming it. A ROWS offset
     * is a whole number of rows; a RANGE offset is a number in the units of the one ORDER BY key
     * (scaled to a decimal key's scale) or, for a date key, an INTERVAL of whole days.
     */
    private static WindowFrame frame(final Window.Group group, final Window w, final int inputFields) {
        final WindowFrame.Unit unit = group.isRows ? WindowFrame.Unit.ROWS : WindowFrame.Unit.RANGE;
        final FrameBound start = bound(group, group.lowerBound, w, inputFields);
        final FrameBound end = bound(group, group.upperBound, w, inputFields);
        try {
            return WindowFrame.of(unit, start, end);
        } catch (final IllegalArgumentException e) {
            throw SqlException.unsupported(e.getMessage());
        }
    }

    private static FrameBound bound(final Window.Group group, final RexWindowBound b, final Window w,
                                    final int inputFields) {
        if (b.isCurrentRow()) {
            return FrameBound.CURRENT_ROW;
        }
        if (b.isUnbounded()) {
            return b.isPreceding() ? FrameBound.UNBOUNDED_PRECEDING : FrameBound.UNBOUNDED_FOLLOWING;
        }
        final long offset = offset(group, b, w, inputFields);
        return b.isPreceding() ? FrameBound.preceding(offset) : FrameBound.following(offset);
    }

    /** A bound's offset in the frame's units: rows, or the ORDER BY key's stored units. */
    private static long offset(final Window.Group group, final RexWindowBound b, final Window w,
                               final int inputFields) {
        final RexNode node = constant(b.getOffset(), w, inputFields);
        final String frame = (group.isRows ? "ROWS" : "RANGE") + " frame bound " + describe(b, w, inputFields);
        if (!(node instanceof RexLiteral literal) || literal.getValue() == null) {
            throw SqlException.unsupported("the window " + frame + " is not supported: a frame offset is a"
                    + " constant number (or, over a date, an INTERVAL of days)");
        }
        final BigDecimal value;
        if (SqlTypeName.INTERVAL_TYPES.contains(literal.getType().getSqlTypeName())) {
            if (group.isRows || !SqlTypeName.DAY_INTERVAL_TYPES.contains(literal.getType().getSqlTypeName())) {
                throw SqlException.unsupported("the window " + frame + " is not supported: an INTERVAL offset"
                        + " frames a RANGE over a date, in whole days");
            }
            final BigDecimal millis = literal.getValueAs(BigDecimal.class);
            value = millis.divide(BigDecimal.valueOf(86_400_000L));
            requireRangeKey(group, w, frame, true);
        } else {
            value = literal.getValueAs(BigDecimal.class);
            if (!group.isRows) {
                requireRangeKey(group, w, frame, false);
            }
        }
        BigDecimal scaled = value;
        if (!group.isRows) {
            final RelDataType key = w.getInput().getRowType().getFieldList()
                    .get(group.orderKeys.getFieldCollations().get(0).getFieldIndex()).getType();
            if (key.getSqlTypeName() == SqlTypeName.DECIMAL) {
                scaled = value.movePointRight(key.getScale());
            }
        }
        if (scaled.signum() < 0) {
            throw SqlException.unsupported("the window " + frame + " is not supported: a frame offset must be 0 or"
                    + " more");
        }
        try {
            return scaled.longValueExact();
        } catch (final ArithmeticException e) {
            throw SqlException.unsupported("the window " + frame + " is not supported: the offset " + value + " is"
                    + " not a whole number of " + (group.isRows ? "rows" : "units of the ORDER BY key"));
        }
    }

    /**
     * A RANGE offset reads one integer, decimal or date ORDER BY key: an INTERVAL for a date, a
     * number for the others.
     */
    private static void requireRangeKey(final Window.Group group, final Window w, final String frame,
                                       final boolean interval) {
        if (group.orderKeys.getFieldCollations().size() != 1) {
            throw SqlException.unsupported("the window " + frame + " is not supported: a RANGE offset needs exactly"
                    + " one ORDER BY key; use ROWS, or order by one column");
        }
        final SqlTypeName key = w.getInput().getRowType().getFieldList()
                .get(group.orderKeys.getFieldCollations().get(0).getFieldIndex()).getType().getSqlTypeName();
        final boolean date = key == SqlTypeName.DATE;
        final boolean number = key == SqlTypeName.INTEGER || key == SqlTypeName.BIGINT
                || key == SqlTypeName.SMALLINT || key == SqlTypeName.TINYINT || key == SqlTypeName.DECIMAL;
        if (interval ? !date : !number) {
            throw SqlException.unsupported("the window " + frame + " is not supported: a RANGE offset frames an"
                    + " integer or decimal ORDER BY key by a number and a date key by an INTERVAL of days, not a "
                    + key + " key " + (interval ? "by an INTERVAL" : "by a number"));
        }
    }

    private static RexNode constant(final RexNode offset, final Window w, final int inputFields) {
        if (offset instanceof RexInputRef ref && ref.getIndex() >= inputFields
                && ref.getIndex() - inputFields < w.constants.size()) {
            return w.constants.get(ref.getIndex() - inputFields);
        }
        return offset;
    }

    /** A bound as SQL writes it; an offset is one of the window's constants. */
    private static String describe(final RexWindowBound b, final Window w, final int inputFields) {
        final RexNode offset = constant(b.getOffset(), w, inputFields);
        return (b.isUnbounded() ? "UNBOUNDED" : String.valueOf(offset)) + (b.isPreceding() ? " PRECEDING" : " FOLLOWING");
    }
}
