package io.sluice.sql;

import java.math.BigDecimal;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * A constant interval added to or taken from a date: {@code amount} months when {@code months},
 * else milliseconds (Calcite's units). Calcite reads {@code INTERVAL '30' DAY} as a literal, and
 * {@code INTERVAL 30 days}, which DuckDB, Spark and their TPC-DS texts write, as {@code 30} times
 * {@code INTERVAL '1' DAY}; both are the same constant here.
 */
record IntervalConstant(boolean months, long amount) {

    /** The interval {@code rex} is, or null where it is not a constant interval. */
    static IntervalConstant of(final RexNode rex) {
        if (rex instanceof RexLiteral l) {
            final SqlTypeFamily family = l.getTypeName().getFamily();
            if (family == SqlTypeFamily.INTERVAL_YEAR_MONTH || family == SqlTypeFamily.INTERVAL_DAY_TIME) {
                return new IntervalConstant(family == SqlTypeFamily.INTERVAL_YEAR_MONTH,
                        l.getValueAs(BigDecimal.class).longValueExact());
            }
            return null;
        }
        // Calcite's interval multiplication is "*" of a kind other than TIMES, so it is matched by name.
        if (rex instanceof RexCall times && "*".equals(times.getOperator().getName())
                && times.getOperands().size() == 2) {
            final RexNode x = times.getOperands().get(0);
            final RexNode y = times.getOperands().get(1);
            final IntervalConstant unit = of(y) != null ? of(y) : of(x);
            final Long count = wholeNumber(of(y) != null ? x : y);
            if (unit != null && count != null) {
                return new IntervalConstant(unit.months(), Math.multiplyExact(count, unit.amount()));
            }
        }
        return null;
    }

    private static Long wholeNumber(final RexNode rex) {
        if (rex instanceof RexLiteral l && l.getTypeName().getFamily() == SqlTypeFamily.NUMERIC) {
            final BigDecimal v = l.getValueAs(BigDecimal.class);
            if (v != null && v.stripTrailingZeros().scale() <= 0) {
                return v.longValueExact();
            }
        }
        return null;
    }
}
