package io.sluice.sql;

import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Calcite's standard conversion of SQL calls to row expressions, but {@code AVG(x) OVER (...)} stays
 * one AVG window aggregate: Calcite would expand it into {@code SUM(x) OVER w / COUNT(x) OVER w} in
 * the argument's type (an integer division for integers), while the engine's AVG is the exact sum
 * divided by the count as a double, as DuckDB computes it and as AVG in a GROUP BY already runs.
 */
final class WindowConvertlets implements SqlRexConvertletTable {
    /** The one table. */
    static final WindowConvertlets INSTANCE = new WindowConvertlets();

    private WindowConvertlets() {
    }

    @Override
    public SqlRexConvertlet get(final SqlCall call) {
        if (call.getKind() == SqlKind.AVG && call.getOperator() instanceof SqlAggFunction avg) {
            return (cx, c) -> StandardConvertletTable.INSTANCE.convertAggregateFunction(cx, avg, c);
        }
        return StandardConvertletTable.INSTANCE.get(call);
    }
}
