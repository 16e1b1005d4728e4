package io.sluice.sql;

import io.sluice.engine.expr.CaseWhen;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.DoubleArithmetic;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.Literal;
import io.sluice.engine.expr.ScalarFunction;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;
import com.google.common.collect.BoundType;
import com.google.common.collect.Range;

/**
 * Translates Calcite row expressions over a {@link Relation}'s fields into engine {@link Expr}s.
 * Constants are folded here, exactly (decimal arithmetic, date plus or minus an interval), so
 * that a filter on a column meets a literal that block pruning can use. An operator the engine
 * lacks is a {@link SqlException} naming it.
 */
final class RexTranslator {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final Expr TRUE_CONSTANT = new Literal(DataType.BOOLEAN, 1, null);
    private static final Expr FALSE_CONSTANT = new Literal(DataType.BOOLEAN, 0, null);
    private static final Expr NULL_BOOLEAN = Expr.nullOf(DataType.BOOLEAN);

    private final List<String> columns;
    private final Set<String> doubles;

    RexTranslator(final Relation input) {
        this(input.columns(), input.doubles());
    }

    RexTranslator(final List<String> columns, final Set<String> doubles) {
        this.columns = columns;
        this.doubles = doubles;
    }

    /** Whether an expression over these columns evaluates to DOUBLE. */
    boolean isDouble(final Expr e) {
        if (e instanceof DoubleArithmetic) {
            return true;
        }
        if (e instanceof ColumnRef r) {
            return doubles.contains(r.name());
        }
        if (e instanceof CaseWhen c) {
            return isDouble(c.then()) || (c.otherwise() != null && isDouble(c.otherwise()));
        }
        if (e instanceof Literal l) {
            return l.type().kind() == DataType.Kind.DOUBLE;
        }
        if (e instanceof ScalarFunction f) {
            return f.type().kind() == DataType.Kind.DOUBLE;
        }
        return false;
    }

    /** The engine expression of a row expression. */
    Expr translate(final RexNode rex) {
        if (rex instanceof RexInputRef ref) {
            return Expr.col(columns.get(ref.getIndex()));
        }
        if (rex instanceof RexLiteral literal) {
            return literal(literal);
        }
        if (rex instanceof RexCall call) {
            return call(call);
        }
        throw SqlException.unsupported("the expression " + rex + " (" + rex.getKind() + ") is not supported");
    }

    private Expr call(final RexCall call) {
        final List<RexNode> ops = call.getOperands();
        switch (call.getKind()) {
            case AND:
                return Expr.and(all(ops));
            case OR:
                return Expr.or(all(ops));
            case NOT:
                return Expr.not(translate(ops.get(0)));
            case EQUALS:
                return Expr.eq(operand(ops.get(0)), operand(ops.get(1)));
            case NOT_EQUALS:
                return Expr.ne(operand(ops.get(0)), operand(ops.get(1)));
            case LESS_THAN:
                return Expr.lt(operand(ops.get(0)), operand(ops.get(1)));
            case LESS_THAN_OR_EQUAL:
                return Expr.le(operand(ops.get(0)), operand(ops.get(1)));
            case GREATER_THAN:
                return Expr.gt(operand(ops.get(0)), operand(ops.get(1)));
            case GREATER_THAN_OR_EQUAL:
                return Expr.ge(operand(ops.get(0)), operand(ops.get(1)));
            case PLUS:
            case MINUS:
                return plusMinus(call);
            case MINUS_PREFIX:
                return arithmetic(SqlKind.MINUS, Expr.lit(0), translate(ops.get(0)));
            case PLUS_PREFIX:
                return translate(ops.get(0));
            case TIMES:
                return arithmetic(call.getKind(), translate(ops.get(0)), translate(ops.get(1)));
            case DIVIDE:
                return new DoubleArithmetic(DoubleArithmetic.Op.DIV, translate(ops.get(0)), translate(ops.get(1)));
            case CAST:
                return cast(call);
            case SEARCH:
                return search(translate(ops.get(0)), (RexLiteral) ops.get(1));
            case LIKE:
                return like(call);
            case CASE:
                return caseWhen(ops, 0);
            case IS_NOT_DISTINCT_FROM:
                return notDistinct(ops.get(0), ops.get(1));
            case IS_DISTINCT_FROM:
                return Expr.not(notDistinct(ops.get(0), ops.get(1)));
            case IS_NULL:
                return Expr.isNull(translate(ops.get(0)));
            case IS_NOT_NULL:
                return Expr.isNotNull(translate(ops.get(0)));
            case IS_TRUE:
                return isTrue(translate(ops.get(0)));
            case IS_NOT_TRUE:
                return Expr.not(isTrue(translate(ops.get(0))));
            case IS_FALSE:
                return isTrue(Expr.not(translate(ops.get(0))));
            case IS_NOT_FALSE:
                return Expr.not(isTrue(Expr.not(translate(ops.get(0)))));
            case COALESCE:
                return coalesce(ops);
            case NULLIF:
                return Expr.nullIf(translate(ops.get(0)), translate(ops.get(1)));
            case EXTRACT:
                return extract(call);
            default:
                break;
        }
        if ("SUBSTRING".equals(call.getOperator().getName()) || "SUBSTR".equals(call.getOperator().getName())) {
            return substring(call);
        }
        final Expr function = new FunctionCalls(this).translate(call);
        if (function != null) {
            return function;
        }
        throw SqlException.unsupported("the function or operator " + call.getOperator().getName() + " in " + call
                + " is not supported");
    }

    /** {@code p IS TRUE}: TRUE where {@code p} is, FALSE where it is FALSE or NULL (never NULL). */
    private static Expr isTrue(final Expr p) {
        return Expr.and(p, Expr.isNotNull(p));
    }

    private Expr coalesce(final List<RexNode> ops) {
        final Expr[] rest = new Expr[ops.size() - 1];
        for (int i = 1; i < ops.size(); i++) {
            rest[i - 1] = translate(ops.get(i));
        }
        return Expr.coalesce(translate(ops.get(0)), rest);
    }

    /**
     * A comparison operand. SQL compares exact numbers exactly; Calcite may narrow one side's
     * decimal scale to the other's with a cast, which would round, so that cast is not applied.
     */
    private Expr operand(final RexNode rex) {
        if (rex.getKind() == SqlKind.CAST && rex instanceof RexCall cast
                && cast.getType().getSqlTypeName() == SqlTypeName.DECIMAL
                && cast.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
            return translate(cast.getOperands().get(0));
        }
        return translate(rex);
    }

    private Expr[] all(final List<RexNode> ops) {
        final Expr[] out = new Expr[ops.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = translate(ops.get(i));
        }
        return out;
    }

    private Expr plusMinus(final RexCall call) {
        final RexNode a = call.getOperands().get(0);
        final IntervalConstant interval = IntervalConstant.of(call.getOperands().get(1));
        if (interval != null) {
            final Expr date = translate(a);
            final boolean minus = call.getKind() == SqlKind.MINUS;
            final boolean months = interval.months();
            if (!(date instanceof Literal d) || d.type().kind() != DataType.Kind.DATE) {
                if (months) {
                    final long amount = interval.amount();
                    return Expr.function(ScalarFunction.Function.ADD_MONTHS, DataType.DATE, date,
                            Expr.lit(minus ? -amount : amount));
                }
                final long millis = interval.amount();
                if (millis % MILLIS_PER_DAY != 0) {
                    throw SqlException.unsupported("date arithmetic in hours or finer: " + call
                            + "; a date takes intervals in whole days");
                }
                final long days = millis / MILLIS_PER_DAY;
                return minus ? Expr.sub(date, Expr.lit(days)) : Expr.add(date, Expr.lit(days));
            }
            if (d.isNull()) {
                return date;
            }
            final long amount = interval.amount();
            final LocalDate from = LocalDate.ofEpochDay(d.value());
            final LocalDate to = months
                    ? from.plusMonths(minus ? -amount : amount)
                    : from.plusDays((minus ? -amount : amount) / MILLIS_PER_DAY);
            return Expr.date(to);
        }
        return arithmetic(call.getKind(), translate(call.getOperands().get(0)), translate(call.getOperands().get(1)));
    }

    private Expr arithmetic(final SqlKind kind, final Expr a, final Expr b) {
        if (isDouble(a) || isDouble(b)) {
            final DoubleArithmetic.Op op = switch (kind) {
                case PLUS -> DoubleArithmetic.Op.ADD;
                case MINUS -> DoubleArithmetic.Op.SUB;
                default -> DoubleArithmetic.Op.MUL;
            };
            return new DoubleArithmetic(op, a, b);
        }
        if (a instanceof Literal x && b instanceof Literal y && !x.isNull() && !y.isNull()
                && x.type().isExactNumeric() && y.type().isExactNumeric()
                && x.type().kind() != DataType.Kind.DATE && y.type().kind() != DataType.Kind.DATE) {
            final BigDecimal l = BigDecimal.valueOf(x.value(), x.type().scale());
            final BigDecimal r = BigDecimal.valueOf(y.value(), y.type().scale());
            final BigDecimal v = switch (kind) {
                case PLUS -> l.add(r);
                case MINUS -> l.subtract(r);
                default -> l.multiply(r);
            };
            return number(v);
        }
        return switch (kind) {
            case PLUS -> Expr.add(a, b);
            case MINUS -> Expr.sub(a, b);
            default -> Expr.mul(a, b);
        };
    }

    private static Expr number(final BigDecimal v) {
        BigDecimal x = v;
        if (x.unscaledValue().bitLength() > 63) {
            // Calcite writes constants at the scale of the type it casts them to (9e18 compared with
            // a DECIMAL(38,2) sum is 9000000000000000000.00): the same value at its own scale may fit.
            x = x.stripTrailingZeros();
            x = x.scale() < 0 ? x.setScale(0) : x;
        }
        if (x.unscaledValue().bitLength() > 63) {
            throw SqlException.unsupported("the constant " + v.toPlainString() + " has more digits than a 64-bit"
                    + " decimal holds (18): write a smaller constant");
        }
        return x.scale() <= 0 ? Expr.lit(x.longValueExact()) : Expr.dec(x.toPlainString());
    }

    private Expr cast(final RexCall call) {
        final RexNode operand = call.getOperands().get(0);
        final SqlTypeName to = call.getType().getSqlTypeName();
        final SqlTypeName from = operand.getType().getSqlTypeName();
        final Expr e = translate(operand);
        if (e instanceof Literal l && l.isNull()) {
            return Expr.nullOf(typeOf(call.getType()));
        }
        switch (to) {
            case CHAR:
            case VARCHAR:
                if (from == SqlTypeName.CHAR || from == SqlTypeName.VARCHAR) {
                    return e;
                }
                break;
            case DATE:
                if (from == SqlTypeName.DATE) {
                    return e;
                }
                break;
            case BIGINT:
            case INTEGER:
            case DECIMAL:
                if (SqlTypeName.INT_TYPES.contains(from) || from == SqlTypeName.BIGINT
                        || (from == SqlTypeName.DECIMAL && (to == SqlTypeName.DECIMAL
                        && call.getType().getScale() >= operand.getType().getScale()))) {
                    return e;
                }
                break;
            case DOUBLE:
            case FLOAT:
            case REAL:
                if (isDouble(e)) {
                    return e;
                }
                if (e instanceof Literal l && l.type().isExactNumeric()) {
                    return new DoubleArithmetic(DoubleArithmetic.Op.ADD, l, Expr.lit(0));
                }
                break;
            default:
                break;
        }
        final DataType target = resultType(call.getType());
        if (target != null && castable(from)) {
            return Expr.function(ScalarFunction.Function.CAST, target, e);
        }
        throw SqlException.unsupported("converting " + operand.getType().getSqlTypeName() + " to "
                + call.getType().getSqlTypeName() + " is not supported (an explicit CAST, or a value of one type compared"
                + " with or combined with one of the other): compare and combine values of one type, e.g. a string"
                + " column with a 'quoted' literal");
    }

    /** Whether CAST converts values of this SQL type (to a {@link #resultType}). */
    private static boolean castable(final SqlTypeName from) {
        return SqlTypeName.INT_TYPES.contains(from) || from == SqlTypeName.DECIMAL || from == SqlTypeName.DATE
                || from == SqlTypeName.CHAR || from == SqlTypeName.VARCHAR || from == SqlTypeName.DOUBLE
                || from == SqlTypeName.FLOAT || from == SqlTypeName.REAL;
    }

    /**
     * The engine type a function of this SQL type produces, or null where the engine has none:
     * integers are INT64, decimals keep a scale up to 18.
     */
    static DataType resultType(final RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BIGINT, INTEGER, SMALLINT, TINYINT -> DataType.INT64;
            case DECIMAL -> type.getScale() <= 18 ? DataType.decimal(type.getScale()) : null;
            case DATE -> DataType.DATE;
            case CHAR, VARCHAR -> DataType.STRING;
            case DOUBLE, FLOAT, REAL -> DataType.DOUBLE;
            default -> null;
        };
    }

    private Expr search(final Expr value, final RexLiteral sargLiteral) {
        final Sarg<?> sarg = sargLiteral.getValueAs(Sarg.class);
        final Expr test = sarg.isAll() || sarg.isNone() ? null : searchRanges(value, sarg);
        return switch (sarg.nullAs) {
            // NULL rows: as the test makes them (NULL), TRUE, or FALSE
            case UNKNOWN -> test != null ? test : sarg.isAll() ? Expr.or(Expr.isNotNull(value), NULL_BOOLEAN)
                    : Expr.and(Expr.isNull(value), NULL_BOOLEAN);
            case TRUE -> test != null ? Expr.or(Expr.isNull(value), test)
                    : sarg.isAll() ? TRUE_CONSTANT : Expr.isNull(value);
            case FALSE -> test != null ? Expr.and(Expr.isNotNull(value), test)
                    : sarg.isAll() ? Expr.isNotNull(value) : FALSE_CONSTANT;
        };
    }

    private Expr searchRanges(final Expr value, final Sarg<?> sarg) {
        if (sarg.isPoints()) {
            final List<Expr> points = new ArrayList<>();
            for (final Range<?> r : sarg.rangeSet.asRanges()) {
                points.add(constant(r.lowerEndpoint()));
            }
            return points.size() == 1 ? Expr.eq(value, points.get(0)) : Expr.in(value, points.toArray(new Expr[0]));
        }
        if (sarg.isComplementedPoints()) {
            final List<Expr> points = new ArrayList<>();
            final Sarg<?> complement = sarg.negate();
            for (final Range<?> r : complement.rangeSet.asRanges()) {
                points.add(constant(r.lowerEndpoint()));
            }
            return Expr.not(points.size() == 1 ? Expr.eq(value, points.get(0))
                    : Expr.in(value, points.toArray(new Expr[0])));
        }
        final List<Expr> ranges = new ArrayList<>();
        for (final Range<?> r : sarg.rangeSet.asRanges()) {
            final List<Expr> bounds = new ArrayList<>();
            if (r.hasLowerBound()) {
                final Expr lo = constant(r.lowerEndpoint());
                bounds.add(r.lowerBoundType() == BoundType.CLOSED ? Expr.ge(value, lo) : Expr.gt(value, lo));
            }
            if (r.hasUpperBound()) {
                final Expr hi = constant(r.upperEndpoint());
                bounds.add(r.upperBoundType() == BoundType.CLOSED ? Expr.le(value, hi) : Expr.lt(value, hi));
            }
            ranges.add(bounds.size() == 1 ? bounds.get(0) : Expr.and(bounds.toArray(new Expr[0])));
        }
        return ranges.size() == 1 ? ranges.get(0) : Expr.or(ranges.toArray(new Expr[0]));
    }

    private static Expr constant(final Object value) {
        if (value instanceof BigDecimal d) {
            return number(d);
        }
        if (value instanceof NlsString s) {
            return Expr.str(s.getValue());
        }
        if (value instanceof DateString d) {
            return Expr.date(LocalDate.ofEpochDay(d.getDaysSinceEpoch()));
        }
        if (value instanceof String s) {
            return Expr.str(s);
        }
        if (value instanceof Number n) {
            return number(new BigDecimal(n.toString()));
        }
        throw SqlException.unsupported("a constant of class " + value.getClass().getSimpleName() + " (" + value
                + ") is not supported");
    }

    private Expr literal(final RexLiteral literal) {
        if (literal.isNull()) {
            return Expr.nullOf(typeOf(literal.getType()));
        }
        final SqlTypeName type = literal.getTypeName();
        if (type == SqlTypeName.BOOLEAN) {
            return Boolean.TRUE.equals(literal.getValueAs(Boolean.class)) ? TRUE_CONSTANT : FALSE_CONSTANT;
        }
        if (type == SqlTypeName.CHAR) {
            return Expr.str(rightTrim(literal.getValueAs(String.class)));
        }
        if (type == SqlTypeName.VARCHAR) {
            return Expr.str(literal.getValueAs(String.class));
        }
        if (type == SqlTypeName.DATE) {
            return Expr.date(LocalDate.ofEpochDay(literal.getValueAs(DateString.class).getDaysSinceEpoch()));
        }
        if (SqlTypeName.NUMERIC_TYPES.contains(type) && type != SqlTypeName.DOUBLE && type != SqlTypeName.FLOAT
                && type != SqlTypeName.REAL) {
            return number(literal.getValueAs(BigDecimal.class));
        }
        throw SqlException.unsupported("a constant of type " + literal.getType() + " (" + literal
                + ") is not supported");
    }

    /** The engine type of a SQL type, for a typed NULL. */
    static DataType typeOf(final RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BIGINT, NULL -> DataType.INT64;
            case INTEGER, SMALLINT, TINYINT -> DataType.INT32;
            case DECIMAL -> DataType.decimal(type.getScale());
            case DATE -> DataType.DATE;
            case CHAR, VARCHAR -> DataType.STRING;
            case BOOLEAN -> DataType.BOOLEAN;
            case DOUBLE, FLOAT, REAL -> DataType.DOUBLE;
            default -> throw SqlException.unsupported("a NULL of type " + type + " is not supported");
        };
    }

    /** CHAR constants are blank-padded to a common length; SQL compares them without the padding. */
    private static String rightTrim(final String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    private Expr like(final RexCall call) {
        final List<RexNode> ops = call.getOperands();
        if (ops.size() > 2 || !(ops.get(1) instanceof RexLiteral pattern)) {
            throw SqlException.unsupported("LIKE with an escape or a non-constant pattern (" + call
                    + ") is not supported");
        }
        final String p = pattern.getValueAs(String.class);
        if (p.indexOf('_') >= 0) {
            throw SqlException.unsupported("LIKE '" + p + "': the _ wildcard is not supported yet, only %");
        }
        final Expr like = Expr.like(translate(ops.get(0)), p);
        final boolean negated = call.getOperator() instanceof SqlLikeOperator l && l.isNegated();
        return negated ? Expr.not(like) : like;
    }

    private Expr caseWhen(final List<RexNode> ops, final int from) {
        if (from == ops.size() - 1) {
            return translate(ops.get(from));
        }
        return Expr.caseWhen(translate(ops.get(from)), translate(ops.get(from + 1)), caseWhen(ops, from + 2));
    }

    private Expr extract(final RexCall call) {
        final RexLiteral unit = (RexLiteral) call.getOperands().get(0);
        final TimeUnitRange range = unit.getValueAs(TimeUnitRange.class);
        final Expr date = translate(call.getOperands().get(1));
        final ScalarFunction.Function part = switch (range) {
            case YEAR -> null;
            case QUARTER -> ScalarFunction.Function.QUARTER;
            case MONTH -> ScalarFunction.Function.MONTH;
            case WEEK -> ScalarFunction.Function.WEEK;
            case DAY -> ScalarFunction.Function.DAY;
            case DOW -> ScalarFunction.Function.DAY_OF_WEEK;
            case ISODOW -> ScalarFunction.Function.ISO_DAY_OF_WEEK;
            case DOY -> ScalarFunction.Function.DAY_OF_YEAR;
            default -> throw SqlException.unsupported("EXTRACT(" + range + " FROM ...) is not supported: a date has"
                    + " YEAR, QUARTER, MONTH, WEEK, DAY, DOW, ISODOW and DOY");
        };
        return part == null ? Expr.year(date) : Expr.function(part, DataType.INT64, date);
    }

    /** {@code a IS NOT DISTINCT FROM b}: equal, or both NULL; never NULL itself. */
    private Expr notDistinct(final RexNode a, final RexNode b) {
        final Expr x = operand(a);
        final Expr y = operand(b);
        return Expr.or(isTrue(Expr.eq(x, y)), Expr.and(Expr.isNull(x), Expr.isNull(y)));
    }

    private Expr substring(final RexCall call) {
        final List<RexNode> ops = call.getOperands();
        if (ops.size() != 3 || !(ops.get(1) instanceof RexLiteral start) || !(ops.get(2) instanceof RexLiteral length)) {
            throw SqlException.unsupported("SUBSTRING needs constant FROM and FOR positions: " + call);
        }
        return Expr.substring(translate(ops.get(0)), start.getValueAs(Integer.class), length.getValueAs(Integer.class));
    }
}
