package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;

/**
 * One aggregate of a {@link HashAggregate}: a function, its argument (null for COUNT(*)) and its
 * output name. Every function but COUNT(*) skips the rows where its argument is NULL; SUM, AVG, MIN
 * and MAX of a group without a non-NULL input are NULL, COUNT, COUNT(DISTINCT) and SUM0 of it 0.
 */
public record Aggregate(AggregateFunction function, Expr argument, String name) {
    public Aggregate {
        if ((argument == null) != (function == AggregateFunction.COUNT_STAR)) {
            throw new IllegalArgumentException(function + " as '" + name + "': "
                    + (argument == null ? "needs an argument" : "takes no argument"));
        }
    }

    /** The type of the aggregate's value over the given input. */
    DataType outputType(final RowType input) {
        return newAccumulator(input).type();
    }

    /** Fresh per-worker state over the given input columns. */
    Accumulator newAccumulator(final RowType input) {
        if (function == AggregateFunction.COUNT_STAR) {
            return new CountAccumulator(null);
        }
        final Evaluator e = argument.bind(input);
        if (function == AggregateFunction.COUNT) {
            return new CountAccumulator(e);
        }
        if (function == AggregateFunction.SUM0) {
            if (e.type().kind() != DataType.Kind.INT64 && e.type().kind() != DataType.Kind.INT32) {
                throw new IllegalArgumentException("sum0(" + argument + ") as '" + name + "': argument has type "
                        + e.type() + ", expected a 64- or 32-bit integer");
            }
            return CountAccumulator.adding(e);
        }
        if (function == AggregateFunction.VAR_SAMP || function == AggregateFunction.VAR_POP
                || function == AggregateFunction.STDDEV_SAMP || function == AggregateFunction.STDDEV_POP) {
            if (e.type().kind() != DataType.Kind.DOUBLE && e.type().kind() != DataType.Kind.INT64
                    && e.type().kind() != DataType.Kind.INT32 && e.type().kind() != DataType.Kind.DECIMAL) {
                throw new IllegalArgumentException(function + "(" + argument + ") as '" + name + "': argument has type "
                        + e.type() + ", expected an integer, decimal or double");
            }
            return new VarianceAccumulator(e, function);
        }
        if (e.type().kind() == DataType.Kind.DOUBLE
                && (function == AggregateFunction.SUM || function == AggregateFunction.AVG)) {
            return new DoubleSumAccumulator(e, function == AggregateFunction.AVG);
        }
        if (e.type().isWide()) {
            return switch (function) {
                case SUM -> new SumAccumulator(e, false);
                case AVG -> new SumAccumulator(e, true);
                case MIN -> new Decimal128MinMaxAccumulator(e, false);
                case MAX -> new Decimal128MinMaxAccumulator(e, true);
                default -> throw new IllegalArgumentException(function + "(" + argument + ") as '" + name
                        + "': the argument is a 128-bit decimal (a SUM result), which SUM, AVG, MIN, MAX and COUNT"
                        + " take, " + function + " not yet");
            };
        }
        if (function == AggregateFunction.COUNT_DISTINCT && e.type().kind() == DataType.Kind.STRING) {
            return new CountDistinctAccumulator(e);
        }
        if (!e.type().isExactNumeric()) {
            throw new IllegalArgumentException(function + "(" + argument + ") as '" + name + "': argument has type "
                    + e.type() + ", expected an integer, decimal or date");
        }
        final boolean isDate = e.type().kind() == DataType.Kind.DATE;
        if (isDate && (function == AggregateFunction.SUM || function == AggregateFunction.AVG)) {
            throw new IllegalArgumentException(function + " of the date " + argument + " is not defined");
        }
        return switch (function) {
            case SUM -> new SumAccumulator(e, false);
            case AVG -> new SumAccumulator(e, true);
            case MIN -> new MinMaxAccumulator(e, false);
            case MAX -> new MinMaxAccumulator(e, true);
            case COUNT_DISTINCT -> new CountDistinctAccumulator(e);
            default -> throw new IllegalStateException(function.toString());
        };
    }

    @Override
    public String toString() {
        final String call = function == AggregateFunction.COUNT_STAR ? "count(*)"
                : function == AggregateFunction.COUNT_DISTINCT ? "count(DISTINCT " + argument + ")"
                : function.name().toLowerCase(java.util.Locale.ROOT) + "(" + argument + ")";
        return call + " AS " + name;
    }
}
