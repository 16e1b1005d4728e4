package io.sluice.sql;

import java.math.BigDecimal;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * {@code date + n} and {@code date - n} for a whole number {@code n}: DuckDB, Postgres and TPC-DS
 * (Q72's {@code d1.d_date + 5}) add days, Calcite's validator refuses the types. Where validation
 * fails on exactly that, at a position, the statement is validated again with the number there
 * read as {@code INTERVAL 'n' DAY}.
 */
final class DatePlusDays {
    private static final Pattern DATE_AND_INTEGER = Pattern.compile(
            "Cannot apply '([+-])' to arguments of type '<DATE> [+-] <INTEGER>'\\..*", Pattern.DOTALL);

    private DatePlusDays() {
    }

    /** Whether a validation message is Calcite's refusal of {@code DATE + INTEGER} or {@code DATE - INTEGER}. */
    static boolean refuses(final String message) {
        return message != null && DATE_AND_INTEGER.matcher(message).matches();
    }

    /**
     * Rewrites, in a parsed statement, the whole-number operand of the {@code +} or {@code -} that
     * starts at {@code line}, {@code column} into a day interval.
     *
     * @return whether there was such an operator with a whole-number literal operand
     */
    static boolean rewrite(final SqlNode statement, final int line, final int column) {
        final boolean[] done = {false};
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(final SqlCall call) {
                if (!done[0] && (call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.MINUS)
                        && call.getParserPosition().getLineNum() == line
                        && call.getParserPosition().getColumnNum() == column) {
                    for (int i = call.getKind() == SqlKind.PLUS ? 0 : 1; i < 2 && !done[0]; i++) {
                        if (call.operand(i) instanceof SqlNumericLiteral n && n.isInteger()) {
                            call.setOperand(i, days(n));
                            done[0] = true;
                        }
                    }
                }
                return done[0] ? null : super.visit(call);
            }
        });
        return done[0];
    }

    private static SqlNode days(final SqlNumericLiteral n) {
        final SqlParserPos pos = n.getParserPosition();
        final BigDecimal value = n.getValueAs(BigDecimal.class);
        return SqlLiteral.createInterval(value.signum() < 0 ? -1 : 1, value.abs().toPlainString(),
                new SqlIntervalQualifier(TimeUnit.DAY, null, pos), pos);
    }
}
