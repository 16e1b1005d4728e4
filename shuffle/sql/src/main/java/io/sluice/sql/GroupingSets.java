package io.sluice.sql;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * GROUP BY ROLLUP, CUBE and GROUPING SETS: one aggregation per grouping set over the same input,
 * the keys a set leaves out projected as typed NULLs and {@code GROUPING(...)} as the constant bit
 * mask of the set (bit 1 where an argument is left out, the first argument highest), the
 * aggregations' rows then put together with UNION ALL, as DuckDB defines them.
 */
final class GroupingSets {
    private final RelTranslator translator;

    GroupingSets(final RelTranslator translator) {
        this.translator = translator;
    }

    Relation plan(final org.apache.calcite.rel.core.Aggregate a, final Relation in) {
        final List<Integer> allKeys = a.getGroupSet().asList();
        final List<RelDataTypeField> fields = a.getRowType().getFieldList();
        final List<String> columns = new ArrayList<>();
        for (final RelDataTypeField f : fields) {
            columns.add(translator.names().fresh(f.getName()));
        }
        final Set<String> doubles = new HashSet<>();
        final List<Plan> branches = new ArrayList<>();
        double rows = 0;
        for (final ImmutableBitSet set : a.getGroupSets()) {
            final List<NamedExpr> keys = new ArrayList<>();
            for (final int k : set) {
                keys.add(NamedExpr.column(in.column(k)));
            }
            final List<Aggregate> aggs = new ArrayList<>();
            final List<NamedExpr> items = new ArrayList<>();
            for (int i = 0; i < allKeys.size(); i++) {
                final int k = allKeys.get(i);
                final String out = columns.get(i);
                items.add(new NamedExpr(out, set.get(k) ? Expr.col(in.column(k))
                        : Expr.nullOf(RexTranslator.typeOf(fields.get(i).getType()))));
                if (in.doubles().contains(in.column(k))) {
                    doubles.add(out);
                }
            }
            for (int c = 0; c < a.getAggCallList().size(); c++) {
                final AggregateCall call = a.getAggCallList().get(c);
                final String out = columns.get(allKeys.size() + c);
                final SqlKind kind = call.getAggregation().getKind();
                if (kind == SqlKind.GROUPING || kind == SqlKind.GROUPING_ID) {
                    long mask = 0;
                    for (final int arg : call.getArgList()) {
                        mask = (mask << 1) | (set.get(arg) ? 0 : 1);
                    }
                    items.add(new NamedExpr(out, Expr.lit(mask)));
                    continue;
                }
                final String name = translator.names().fresh(call.getName() == null ? "agg" : call.getName());
                aggs.add(translator.aggregateOf(call, in, name));
                items.add(new NamedExpr(out, Expr.col(name)));
                if (RelTranslator.isDouble(call, in)) {
                    doubles.add(out);
                }
            }
            branches.add(in.plan().aggregate(keys, aggs.toArray(new Aggregate[0]))
                    .project(items.toArray(new NamedExpr[0])));
            rows += set.isEmpty() ? 1 : in.rows();
        }
        final Plan plan = branches.size() == 1 ? branches.get(0)
                : branches.get(0).unionAll(branches.subList(1, branches.size()).toArray(new Plan[0]));
        return new Relation(plan, columns, doubles, Math.max(1, rows), new StoredColumn[columns.size()]);
    }
}
