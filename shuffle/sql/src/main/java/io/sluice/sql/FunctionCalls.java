package io.sluice.sql;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.ScalarFunction;
import io.sluice.engine.expr.ScalarFunction.Function;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The SQL functions that become a {@link ScalarFunction}: string functions, SQRT and ABS, by the
 * name Calcite gives them (its standard and PostgreSQL operators), with DuckDB's arguments:
 * {@code TRIM} of spaces only, {@code LPAD}/{@code RPAD} padding with a space unless told,
 * {@code a || b} NULL where either is (unlike {@code CONCAT}, which skips NULLs).
 */
final class FunctionCalls {
    private final RexTranslator rex;

    FunctionCalls(final RexTranslator rex) {
        this.rex = rex;
    }

    /** The engine expression of a function call, or null when it is none of these functions. */
    Expr translate(final RexCall call) {
        final List<RexNode> ops = call.getOperands();
        final String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (call.getKind() == SqlKind.TRIM) {
            return trim(call);
        }
        if (call.getKind() == SqlKind.POSITION) {
            if (ops.size() > 2) {
                throw SqlException.unsupported("POSITION(... FROM start) is not supported: " + call);
            }
            return function(Function.POSITION, DataType.INT64, ops.get(1), ops.get(0));
        }
        return switch (name) {
            case "UPPER" -> function(Function.UPPER, DataType.STRING, ops.get(0));
            case "LOWER" -> function(Function.LOWER, DataType.STRING, ops.get(0));
            case "LTRIM" -> function(Function.LTRIM, DataType.STRING, ops.get(0));
            case "RTRIM" -> function(Function.RTRIM, DataType.STRING, ops.get(0));
            case "BTRIM" -> function(Function.TRIM, DataType.STRING, ops.get(0));
            case "CONCAT" -> function(Function.CONCAT, DataType.STRING, ops.toArray(new RexNode[0]));
            case "||" -> concatStrict(ops);
            case "REPLACE" -> function(Function.REPLACE, DataType.STRING, ops.get(0), ops.get(1), ops.get(2));
            case "LEFT" -> function(Function.LEFT, DataType.STRING, ops.get(0), ops.get(1));
            case "RIGHT" -> function(Function.RIGHT, DataType.STRING, ops.get(0), ops.get(1));
            case "LPAD", "RPAD" -> pad(name.equals("LPAD") ? Function.LPAD : Function.RPAD, ops);
            case "CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH" -> function(Function.LENGTH, DataType.INT64, ops.get(0));
            case "STRPOS" -> function(Function.POSITION, DataType.INT64, ops.get(0), ops.get(1));
            case "SQRT" -> function(Function.SQRT, DataType.DOUBLE, ops.get(0));
            case "ABS" -> abs(call);
            case "ROUND" -> round(call);
            default -> null;
        };
    }

    private Expr function(final Function f, final DataType type, final RexNode... args) {
        final Expr[] out = new Expr[args.length];
        for (int i = 0; i < args.length; i++) {
            out[i] = argument(args[i]);
        }
        return Expr.function(f, type, out);
    }

    /**
     * An argument: a CHAR constant keeps its trailing spaces ({@code ' of '}), which
     * {@link RexTranslator} drops where CHAR constants are compared.
     */
    private Expr argument(final RexNode arg) {
        if (arg instanceof RexLiteral l && l.getTypeName() == SqlTypeName.CHAR && !l.isNull()) {
            return Expr.str(l.getValueAs(String.class));
        }
        return rex.translate(arg);
    }

    /** {@code a || b || ...}: the concatenation, NULL where any operand is. */
    private Expr concatStrict(final List<RexNode> ops) {
        final Expr[] args = new Expr[ops.size()];
        final Expr[] notNull = new Expr[ops.size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = argument(ops.get(i));
            notNull[i] = Expr.isNotNull(args[i]);
        }
        return Expr.caseWhen(notNull.length == 1 ? notNull[0] : Expr.and(notNull),
                Expr.function(Function.CONCAT, DataType.STRING, args));
    }

    private Expr pad(final Function f, final List<RexNode> ops) {
        final Expr fill = ops.size() > 2 ? argument(ops.get(2)) : Expr.str(" ");
        return Expr.function(f, DataType.STRING, argument(ops.get(0)), argument(ops.get(1)), fill);
    }

    private Expr abs(final RexCall call) {
        final DataType type = RexTranslator.resultType(call.getType());
        if (type == null) {
            throw SqlException.unsupported("ABS of " + call.getType() + " is not supported: " + call);
        }
        final Expr value = rex.translate(call.getOperands().get(0));
        return Expr.function(Function.ABS, rex.isDouble(value) ? DataType.DOUBLE : type, value);
    }

    /** {@code ROUND(x [, digits])}: to the type Calcite derives (a decimal keeps or narrows its scale). */
    private Expr round(final RexCall call) {
        final DataType type = RexTranslator.resultType(call.getType());
        if (type == null) {
            throw SqlException.unsupported("ROUND of " + call.getType() + " is not supported: " + call);
        }
        final Expr digits = call.getOperands().size() > 1 ? argument(call.getOperands().get(1)) : Expr.lit(0);
        final Expr value = argument(call.getOperands().get(0));
        // A quotient is a double in Sluice (and in DuckDB), whatever decimal type Calcite gives it.
        return Expr.function(Function.ROUND, rex.isDouble(value) ? DataType.DOUBLE : type, value, digits);
    }

    /** {@code TRIM([BOTH | LEADING | TRAILING] [' '] FROM s)}: only spaces are trimmed. */
    private Expr trim(final RexCall call) {
        final List<RexNode> ops = call.getOperands();
        final String flag = String.valueOf(((RexLiteral) ops.get(0)).getValue());
        if (!(ops.get(1) instanceof RexLiteral chars) || !" ".equals(chars.getValueAs(String.class))) {
            throw SqlException.unsupported("TRIM of characters other than a space is not supported: " + call);
        }
        final Function f = switch (flag.toUpperCase(Locale.ROOT)) {
            case "LEADING" -> Function.LTRIM;
            case "TRAILING" -> Function.RTRIM;
            default -> Function.TRIM;
        };
        return function(f, DataType.STRING, ops.get(2));
    }
}
