package io.sluice.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * The name DuckDB gives a result column that has no alias: its expression printed back the way
 * DuckDB prints parsed expressions ({@code sum(ss_quantity)}, {@code (a / b)},
 * {@code CAST(x AS DECIMAL(15, 4))}, {@code main."substring"(s, 1, 30)}), so that a statement gives
 * the same column names in both engines. An expression this class cannot print is named by its
 * text as written.
 */
final class ExpressionNames {
    private static final SqlParser.Config PARSER = SqlParser.config()
            .withQuoting(Quoting.DOUBLE_QUOTE)
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false)
            .withParserFactory(SqlBabelParserImpl.FACTORY)
            .withConformance(SqlConformanceEnum.LENIENT);

    /** Functions DuckDB's parser qualifies or quotes because SQL spells them as keywords. */
    private static final Map<String, String> KEYWORD_FUNCTIONS = Map.of(
            "substring", "main.\"substring\"",
            "trim", "main.\"trim\"",
            "year", "\"year\"",
            "nullif", "\"nullif\"");

    /** DuckDB's spelling of a type in a CAST; the quoted ones are its keywords. */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("INTEGER", "INTEGER"), Map.entry("INT", "INTEGER"), Map.entry("BIGINT", "BIGINT"),
            Map.entry("SMALLINT", "SMALLINT"), Map.entry("TINYINT", "TINYINT"), Map.entry("VARCHAR", "VARCHAR"),
            Map.entry("CHAR", "VARCHAR"), Map.entry("DATE", "\"DATE\""), Map.entry("DOUBLE", "\"DOUBLE\""),
            Map.entry("FLOAT", "FLOAT"), Map.entry("REAL", "FLOAT"), Map.entry("BOOLEAN", "BOOLEAN"));

    private ExpressionNames() {
    }

    /** DuckDB's name for the expression {@code text}, or {@code text} itself when it cannot be printed as DuckDB does. */
    static String of(final String text) {
        try {
            final String printed = print(SqlParser.create(text, PARSER).parseExpression());
            return printed == null ? text : printed;
        } catch (final SqlParseException | RuntimeException e) {
            return text;
        }
    }

    /** An expression as DuckDB prints it, or null for a construct not covered. */
    private static String print(final SqlNode node) {
        if (node instanceof SqlIdentifier id) {
            return id.isStar() ? null : String.join(".", id.names);
        }
        if (node instanceof SqlNumericLiteral n) {
            return n.isExact() ? n.toValue() : null;
        }
        if (node instanceof SqlLiteral l) {
            return switch (l.getTypeName()) {
                case CHAR -> "'" + l.getValueAs(String.class).replace("'", "''") + "'";
                case NULL -> "NULL";
                default -> null;
            };
        }
        if (node instanceof SqlCase c) {
            return caseOf(c);
        }
        if (!(node instanceof SqlCall call)) {
            return null;
        }
        return switch (call.getKind()) {
            case PLUS, MINUS, TIMES, DIVIDE, MOD, EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN,
                 GREATER_THAN_OR_EQUAL, AND, OR -> binary(call);
            case OTHER -> "||".equals(call.getOperator().getName()) ? binary(call) : null;
            case MINUS_PREFIX -> call.operand(0) instanceof SqlNumericLiteral n ? "-" + print(n)
                    : wrap("-(", call.operand(0), ")");
            case IS_NULL -> wrap("(", call.operand(0), " IS NULL)");
            case IS_NOT_NULL -> wrap("(", call.operand(0), " IS NOT NULL)");
            case CAST -> cast(call);
            case TRIM -> trim(call);
            default -> plainFunction(call);
        };
    }

    private static String binary(final SqlCall call) {
        final String left = print(call.operand(0));
        final String right = print(call.operand(1));
        if (left == null || right == null) {
            return null;
        }
        final String op = switch (call.getKind()) {
            case NOT_EQUALS -> "!=";
            default -> call.getOperator().getName().toUpperCase(Locale.ROOT);
        };
        return "(" + left + " " + op + " " + right + ")";
    }

    private static String wrap(final String before, final SqlNode operand, final String after) {
        final String printed = print(operand);
        return printed == null ? null : before + printed + after;
    }

    private static String plainFunction(final SqlCall call) {
        final SqlSyntax syntax = call.getOperator().getSyntax();
        if (syntax != SqlSyntax.FUNCTION && syntax != SqlSyntax.FUNCTION_STAR) {
            return null;
        }
        final String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (name.equals("count") && call.operandCount() == 1 && call.operand(0) instanceof SqlIdentifier id
                && id.isStar()) {
            return "count_star()";
        }
        if (name.equals("coalesce")) {
            return function("COALESCE", call.getOperandList(), false);
        }
        final boolean distinct = call.getFunctionQuantifier() != null
                && "DISTINCT".equalsIgnoreCase(call.getFunctionQuantifier().toValue());
        return function(KEYWORD_FUNCTIONS.getOrDefault(name, name), call.getOperandList(), distinct);
    }

    /** {@code TRIM(x)}, which the parser reads as {@code TRIM(BOTH ' ' FROM x)}; other trims keep their text. */
    private static String trim(final SqlCall call) {
        if (call.operandCount() == 3 && call.operand(0) instanceof SqlLiteral flag
                && "BOTH".equals(String.valueOf(flag.getValue())) && call.operand(1) instanceof SqlLiteral chars
                && " ".equals(chars.getValueAs(String.class))) {
            return wrap("main.\"trim\"(", call.operand(2), ")");
        }
        return null;
    }

    private static String function(final String name, final List<SqlNode> operands, final boolean distinct) {
        final List<String> args = new ArrayList<>();
        for (final SqlNode o : operands) {
            final String printed = print(o);
            if (printed == null) {
                return null;
            }
            args.add(printed);
        }
        return name + "(" + (distinct ? "DISTINCT " : "") + String.join(", ", args) + ")";
    }

    private static String cast(final SqlCall call) {
        final String operand = print(call.operand(0));
        if (operand == null || !(call.operand(1) instanceof SqlDataTypeSpec spec)
                || !(spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec type)) {
            return null;
        }
        final String typeName = type.getTypeName().getSimple().toUpperCase(Locale.ROOT);
        final String printed;
        if (typeName.equals("DECIMAL") || typeName.equals("NUMERIC")) {
            final int precision = type.getPrecision() < 0 ? 18 : type.getPrecision();
            final int scale = type.getScale() < 0 ? 3 : type.getScale();
            printed = "DECIMAL(" + precision + ", " + scale + ")";
        } else {
            printed = TYPES.get(typeName);
        }
        return printed == null ? null : "CAST(" + operand + " AS " + printed + ")";
    }

    /** {@code CASE  WHEN (c) THEN (v) ... ELSE e END}, a simple CASE's conditions as equalities. */
    private static String caseOf(final SqlCase c) {
        final StringBuilder sb = new StringBuilder("CASE ");
        final String value = c.getValueOperand() == null ? null : print(c.getValueOperand());
        if (c.getValueOperand() != null && value == null) {
            return null;
        }
        final SqlNodeList whens = c.getWhenOperands();
        final SqlNodeList thens = c.getThenOperands();
        for (int i = 0; i < whens.size(); i++) {
            final String when = print(whens.get(i));
            final String then = print(thens.get(i));
            if (when == null || then == null) {
                return null;
            }
            sb.append(" WHEN (").append(value == null ? when : "(" + value + " = " + when + ")").append(") THEN (")
                    .append(then).append(")");
        }
        final String otherwise = c.getElseOperand() == null ? "NULL" : print(c.getElseOperand());
        if (otherwise == null) {
            return null;
        }
        return sb.append(" ELSE ").append(otherwise).append(" END").toString();
    }
}
