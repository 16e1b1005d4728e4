package io.sluice.sql;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexLiteral;

/**
 * Constant rows (VALUES, SELECT without FROM, and a condition Calcite found always false) as a
 * Sluice plan. The engine reads rows only from tables, so one row comes from an aggregation without
 * keys over none of a table's rows (a scan whose filter is false reads no block); each tuple is that
 * row projected to the tuple's constants, several tuples a UNION ALL of them, and no tuple that row
 * filtered away.
 */
final class ConstantRows {
    private final RelTranslator translator;
    private final String table;
    private final String column;

    /**
     * @param table  a table of the catalog, whose scan reads nothing
     * @param column one of its columns
     */
    ConstantRows(final RelTranslator translator, final String table, final String column) {
        this.translator = translator;
        this.table = table;
        this.column = column;
    }

    Relation plan(final Values values) {
        final Expr never = Expr.eq(Expr.lit(0), Expr.lit(1));
        final Plan oneRow = Plan.scan(table, column).filter(never)
                .aggregate(List.of(), Plan.count(translator.names().fresh("one_row")));
        final Relation row = new Relation(oneRow, List.of(), Set.of(), 1, new StoredColumn[0]);
        final RexTranslator rex = new RexTranslator(row);
        final List<String> columns = new ArrayList<>();
        for (final String field : values.getRowType().getFieldNames()) {
            columns.add(translator.names().fresh(field));
        }
        final List<Plan> tuples = new ArrayList<>();
        for (final List<RexLiteral> tuple : values.getTuples()) {
            final NamedExpr[] items = new NamedExpr[columns.size()];
            for (int c = 0; c < items.length; c++) {
                final RexLiteral value = tuple.get(c);
                // A NULL takes its column's type, which the other tuples' constants give it.
                items[c] = new NamedExpr(columns.get(c), value.isNull()
                        ? Expr.nullOf(RexTranslator.typeOf(values.getRowType().getFieldList().get(c).getType()))
                        : rex.translate(value));
            }
            tuples.add(oneRow.project(items));
        }
        final Plan plan;
        if (tuples.isEmpty()) {
            final NamedExpr[] nulls = new NamedExpr[columns.size()];
            for (int c = 0; c < nulls.length; c++) {
                nulls[c] = new NamedExpr(columns.get(c), Expr.nullOf(RexTranslator.typeOf(
                        values.getRowType().getFieldList().get(c).getType())));
            }
            plan = oneRow.project(nulls).filter(never);
        } else {
            plan = tuples.size() == 1 ? tuples.get(0)
                    : tuples.get(0).unionAll(tuples.subList(1, tuples.size()).toArray(new Plan[0]));
        }
        return new Relation(plan, columns, Set.of(), Math.max(1, tuples.size()), new StoredColumn[columns.size()]);
    }
}
