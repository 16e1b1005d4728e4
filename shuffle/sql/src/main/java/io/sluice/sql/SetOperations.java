package io.sluice.sql;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;

/**
 * UNION [ALL], INTERSECT and EXCEPT as Sluice plans, all from one UNION ALL node: UNION is the
 * UNION ALL grouped by every column; INTERSECT and EXCEPT tag each input's rows with which input
 * they come from, group the UNION ALL by every column counting the rows of each input, and keep
 * the groups found in every input (INTERSECT) or in the first one only (EXCEPT). Grouping, not
 * joining, is what makes NULLs equal here as SQL wants for set operations (join keys never match a
 * NULL). INTERSECT ALL and EXCEPT ALL, which repeat rows by counts, are refused.
 */
final class SetOperations {
    private final RelTranslator translator;

    SetOperations(final RelTranslator translator) {
        this.translator = translator;
    }

    Relation plan(final SetOp op) {
        final String kind = op.kind.sql.toUpperCase(Locale.ROOT).replace("MINUS", "EXCEPT");
        if (op instanceof Union) {
            final Relation all = unionAll(op, 0);
            return op.all ? all : grouped(all, all.columns(), List.of());
        }
        if (op.all) {
            throw SqlException.unsupported(kind + " ALL is not supported: Sluice runs UNION ALL, UNION, INTERSECT"
                    + " and EXCEPT; write " + kind + " (without ALL) when duplicates need not be kept");
        }
        final int n = op.getInputs().size();
        final Relation tagged = unionAll(op, n);
        final List<String> columns = tagged.columns().subList(0, tagged.columns().size() - n);
        final List<Aggregate> counts = new ArrayList<>();
        final List<Expr> conditions = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final String count = translator.names().fresh("rows_of_input_" + i);
            counts.add(Plan.sum(Expr.col(tagged.column(columns.size() + i)), count));
            final boolean kept = op instanceof Intersect || i == 0;
            conditions.add(kept ? Expr.gt(Expr.col(count), Expr.lit(0)) : Expr.eq(Expr.col(count), Expr.lit(0)));
        }
        final Relation groups = grouped(tagged, columns, counts);
        final Plan kept = groups.plan().filter(Expr.and(conditions.toArray(new Expr[0])))
                .select(columns.toArray(new String[0]));
        return new Relation(kept, columns, groups.doubles(), groups.rows(), new StoredColumn[columns.size()]);
    }

    /**
     * The inputs' rows, each input projected to the same fresh column names, plus {@code tags}
     * columns: tag i is 1 in input i's rows and 0 in the others'.
     */
    private Relation unionAll(final SetOp op, final int tags) {
        final List<String> fields = op.getRowType().getFieldNames();
        final List<String> columns = new ArrayList<>();
        for (final String f : fields) {
            columns.add(translator.names().fresh(f));
        }
        for (int i = 0; i < tags; i++) {
            columns.add(translator.names().fresh("from_input_" + i));
        }
        final List<Plan> plans = new ArrayList<>();
        final Set<String> doubles = new HashSet<>();
        double rows = 0;
        for (int i = 0; i < op.getInputs().size(); i++) {
            final RelNode input = op.getInputs().get(i);
            final Relation in = translator.translate(input);
            final List<NamedExpr> items = new ArrayList<>();
            for (int c = 0; c < fields.size(); c++) {
                items.add(new NamedExpr(columns.get(c), Expr.col(in.column(c))));
                if (in.doubles().contains(in.column(c))) {
                    doubles.add(columns.get(c));
                }
            }
            for (int t = 0; t < tags; t++) {
                items.add(new NamedExpr(columns.get(fields.size() + t), Expr.lit(t == i ? 1 : 0)));
            }
            plans.add(in.plan().project(items.toArray(new NamedExpr[0])));
            rows += in.rows();
        }
        final Plan plan = plans.get(0).unionAll(plans.subList(1, plans.size()).toArray(new Plan[0]));
        return new Relation(plan, columns, doubles, Math.max(1, rows), new StoredColumn[columns.size()]);
    }

    /** A relation grouped by the given columns (NULL is one group), with aggregates after them. */
    private static Relation grouped(final Relation in, final List<String> keys, final List<Aggregate> aggregates) {
        final List<String> columns = new ArrayList<>(keys);
        for (final Aggregate a : aggregates) {
            columns.add(a.name());
        }
        final Plan plan = in.plan().aggregate(Plan.groupBy(keys.toArray(new String[0])),
                aggregates.toArray(new Aggregate[0]));
        final Set<String> doubles = new HashSet<>(in.doubles());
        doubles.retainAll(keys);
        return new Relation(plan, columns, doubles, in.rows(), new StoredColumn[columns.size()]);
    }
}
