package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;

/**
 * One function of a {@link Window}: its type, its argument (null for the ranking functions and
 * COUNT(*)), the frame it aggregates and the name of its output column. Aggregates skip NULL
 * arguments as {@link Aggregate} does: SUM, AVG, MIN and MAX of a frame without a non-NULL value are
 * NULL, COUNT of it 0.
 */
public record WindowFunction(WindowFunctionType type, Expr argument, WindowFrame frame, String name) {
    public WindowFunction {
        if (type == null || frame == null || name == null) {
            throw new IllegalArgumentException("a window function needs a type, a frame and a name, got " + type
                    + ", " + frame + ", " + name);
        }
        final boolean takesArgument = !type.ranking() && type != WindowFunctionType.COUNT_STAR;
        if ((argument != null) != takesArgument) {
            throw new IllegalArgumentException(type + " OVER (...) as '" + name + "': "
                    + (takesArgument ? "needs an argument" : "takes no argument"));
        }
    }

    /** A ranking function (ROW_NUMBER, RANK, DENSE_RANK). */
    public static WindowFunction ranking(final WindowFunctionType type, final String name) {
        return new WindowFunction(type, null, WindowFrame.RANGE_TO_CURRENT_ROW, name);
    }

    /** An aggregate over a frame; {@code argument} null for COUNT(*). */
    public static WindowFunction aggregate(final WindowFunctionType type, final Expr argument, final WindowFrame frame,
                                           final String name) {
        return new WindowFunction(type, argument, frame, name);
    }

    /** The aggregate this function computes per frame, or null for a ranking function. */
    Aggregate asAggregate() {
        return type.ranking() ? null : new Aggregate(type.aggregate(), argument, name);
    }

    /** The type of the output column over the given input: INT64 for ranks and counts, else the aggregate's. */
    DataType outputType(final RowType input) {
        return type.ranking() ? DataType.INT64 : asAggregate().outputType(input);
    }

    @Override
    public String toString() {
        final String call = type == WindowFunctionType.COUNT_STAR ? "count(*)"
                : type.name().toLowerCase(java.util.Locale.ROOT) + "(" + (argument == null ? "" : argument) + ")";
        return call + (type.ranking() ? "" : " " + frame) + " AS " + name;
    }
}
