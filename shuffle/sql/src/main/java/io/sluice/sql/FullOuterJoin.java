package io.sluice.sql;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * {@code left FULL OUTER JOIN right ON condition} as the left outer join of the two sides UNION ALL
 * the right rows that match no left row (an anti join of right against left on the same
 * condition), padded with typed NULLs for the left columns. Each right row is either matched, and
 * then in the left join, or not, and then in the anti join once: no join has to track which of its
 * build rows matched, and a broadcast build never emits its unmatched rows on every CN. A NULL key
 * matches nothing, so rows with one appear once, padded, as in SQL.
 */
final class FullOuterJoin {
    private final RelTranslator translator;

    FullOuterJoin(final RelTranslator translator) {
        this.translator = translator;
    }

    Relation plan(final Join j) {
        final Relation left = translator.translate(j.getLeft());
        final Relation right = translator.translate(j.getRight());
        final int n = left.columns().size();
        final int m = right.columns().size();
        final Relation matched = translator.pair(JoinType.LEFT, left, right, j.getCondition());
        final Relation unmatched = translator.pair(JoinType.ANTI, right, left,
                RelTranslator.swapSides(j.getCondition(), n, m));
        final List<String> columns = new ArrayList<>();
        final Set<String> doubles = new HashSet<>();
        final List<NamedExpr> fromMatched = new ArrayList<>();
        final List<NamedExpr> fromUnmatched = new ArrayList<>();
        final List<RelDataTypeField> leftFields = j.getLeft().getRowType().getFieldList();
        for (int c = 0; c < n + m; c++) {
            final String out = translator.names().fresh(j.getRowType().getFieldNames().get(c));
            columns.add(out);
            final String source = matched.column(c);
            final boolean isDouble = matched.doubles().contains(source);
            if (isDouble) {
                doubles.add(out);
            }
            fromMatched.add(new NamedExpr(out, Expr.col(source)));
            fromUnmatched.add(new NamedExpr(out, c < n
                    ? Expr.nullOf(isDouble ? DataType.DOUBLE : RexTranslator.typeOf(leftFields.get(c).getType()))
                    : Expr.col(unmatched.column(c - n))));
        }
        final Plan plan = matched.plan().project(fromMatched.toArray(new NamedExpr[0]))
                .unionAll(unmatched.plan().project(fromUnmatched.toArray(new NamedExpr[0])));
        final StoredColumn[] stored = new StoredColumn[n + m];
        return new Relation(plan, columns, doubles, matched.rows() + unmatched.rows(), stored);
    }
}
