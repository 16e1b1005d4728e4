package io.sluice.sql;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PlanNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlKind;

/**
 * A scalar subquery's value: Calcite's aggregation of {@code SINGLE_VALUE} calls (which it adds
 * where it cannot prove a subquery gives at most one row) becomes an assert-one-row node over the
 * subquery's rows, so two rows fail the query as SQL requires instead of one being picked. Without
 * group keys (an uncorrelated subquery) no row gives NULL; with them (a decorrelated one, grouped
 * by the outer row's key) the limit is one row per key.
 */
final class ScalarSubquery {
    private final RelTranslator translator;

    ScalarSubquery(final RelTranslator translator) {
        this.translator = translator;
    }

    /** Whether every aggregate call of the aggregation is SINGLE_VALUE (and it has at least one). */
    static boolean isOne(final Aggregate a) {
        if (a.getAggCallList().isEmpty() || a.getGroupType() != Aggregate.Group.SIMPLE) {
            return false;
        }
        for (final AggregateCall call : a.getAggCallList()) {
            if (call.getAggregation().getKind() != SqlKind.SINGLE_VALUE || call.getArgList().size() != 1
                    || call.filterArg >= 0) {
                return false;
            }
        }
        return true;
    }

    /** The group keys, then each call's value, as the aggregation's fields are. */
    Relation plan(final Aggregate a, final Relation in) {
        final List<NamedExpr> items = new ArrayList<>();
        final List<String> columns = new ArrayList<>();
        final List<String> keys = new ArrayList<>();
        final Set<String> keyNames = new LinkedHashSet<>();
        final List<StoredColumn> stored = new ArrayList<>();
        final Set<String> doubles = new java.util.HashSet<>();
        for (final int k : a.getGroupSet()) {
            final String c = in.column(k);
            columns.add(c);
            stored.add(in.stats()[k]);
            if (keyNames.add(c)) {
                items.add(NamedExpr.column(c));
                keys.add(c);
            }
        }
        for (final AggregateCall call : a.getAggCallList()) {
            final String source = in.column(call.getArgList().get(0));
            final String name = translator.names().fresh(call.getName() == null ? "value" : call.getName());
            items.add(new NamedExpr(name, Expr.col(source)));
            columns.add(name);
            stored.add(null);
            if (in.doubles().contains(source)) {
                doubles.add(name);
            }
        }
        final Plan plan = in.plan().project(items.toArray(new NamedExpr[0])).assertOneRow(keys,
                "the subquery over " + tables(in.plan().node()));
        return new Relation(plan, columns, doubles, keys.isEmpty() ? 1 : in.rows(),
                stored.toArray(new StoredColumn[0]));
    }

    /** The tables a plan reads, as the error names the subquery. */
    private static Set<String> tables(final PlanNode node) {
        final Set<String> out = new LinkedHashSet<>();
        collect(node, out);
        return out;
    }

    private static void collect(final Object node, final Set<String> out) {
        if (node instanceof PlanNode.Scan s) {
            out.add(s.table());
            return;
        }
        if (node instanceof List<?> list) {
            for (final Object o : list) {
                collect(o, out);
            }
            return;
        }
        if (node instanceof PlanNode && node.getClass().isRecord()) {
            for (final java.lang.reflect.RecordComponent c : node.getClass().getRecordComponents()) {
                try {
                    collect(c.getAccessor().invoke(node), out);
                } catch (final ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }
}
