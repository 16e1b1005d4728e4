package io.sluice.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * A subquery that only removes duplicates: {@code SELECT DISTINCT keys [, TRUE]} as Calcite's
 * decorrelation writes the right side of EXISTS and IN, or {@code [SELECT keys, TRUE FROM]} a
 * UNION, INTERSECT or EXCEPT, which are duplicate-free themselves. As a semi or anti join's build side the
 * duplicate removal is redundant, so the join builds on the aggregate's input directly.
 *
 * @param input  the rows below the duplicate removal
 * @param fields for each field of the subquery, the input field it is, or -1 for a constant
 */
record DistinctInput(RelNode input, int[] fields) {
    /** The subquery as such, or null when it is anything else. */
    static DistinctInput of(final RelNode rel) {
        if (rel instanceof Project p) {
            final DistinctInput below = of(p.getInput());
            if (below == null) {
                return null;
            }
            final List<RexNode> exprs = p.getProjects();
            final int[] fields = new int[exprs.size()];
            for (int i = 0; i < fields.length; i++) {
                if (exprs.get(i) instanceof RexInputRef ref) {
                    fields[i] = below.fields[ref.getIndex()];
                } else if (exprs.get(i) instanceof RexLiteral) {
                    fields[i] = -1;
                } else {
                    return null;
                }
            }
            return new DistinctInput(below.input, fields);
        }
        if (rel instanceof Aggregate a && a.getGroupType() == Aggregate.Group.SIMPLE && !a.getGroupSet().isEmpty()) {
            for (final AggregateCall call : a.getAggCallList()) {
                if (call.getAggregation().getKind() != SqlKind.LITERAL_AGG) {
                    return null;
                }
            }
            final int[] fields = new int[a.getRowType().getFieldCount()];
            int i = 0;
            for (final int k : a.getGroupSet()) {
                fields[i++] = k;
            }
            while (i < fields.length) {
                fields[i++] = -1;
            }
            return new DistinctInput(a.getInput(), fields);
        }
        if (rel instanceof SetOp set && !set.all) {
            // UNION, INTERSECT and EXCEPT are duplicate-free already: Calcite adds no duplicate removal above them.
            final int[] fields = new int[rel.getRowType().getFieldCount()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = i;
            }
            return new DistinctInput(rel, fields);
        }
        return null;
    }

    /** The input translated, its fields presented as the subquery's (constants as columns nothing reads). */
    Relation translate(final RelTranslator translator) {
        final Relation in = translator.translate(input);
        final List<String> columns = new ArrayList<>();
        final StoredColumn[] stored = new StoredColumn[fields.length];
        for (int i = 0; i < fields.length; i++) {
            if (fields[i] >= 0) {
                columns.add(in.column(fields[i]));
                stored[i] = in.stats()[fields[i]];
            } else {
                columns.add(translator.names().fresh("marker"));
            }
        }
        return new Relation(in.plan(), columns, in.doubles(), in.rows(), stored);
    }
}
