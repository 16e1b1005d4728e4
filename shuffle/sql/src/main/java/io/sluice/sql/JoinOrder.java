package io.sluice.sql;

import io.sluice.engine.exec.JoinType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Join ordering, a Sluice planner rule: a tree of inner joins (as the FROM list wrote it) is
 * flattened into its inputs and conjuncts, each input's own filters are applied to it, then the
 * inputs are joined greedily: at each step the two connected parts whose join is estimated
 * smallest ({@code rows(a) * rows(b) / max distinct(key)}), the smaller one building. Parts with
 * no equality between them are joined last, as a cross join. Conditions over several inputs join
 * in where all their inputs meet.
 */
final class JoinOrder {
    private final RelTranslator translator;
    private final List<RelNode> leaves = new ArrayList<>();
    private final List<Integer> offsets = new ArrayList<>();
    private final List<RexNode> conjuncts = new ArrayList<>();

    JoinOrder(final RelTranslator translator) {
        this.translator = translator;
    }

    /** A part of the join being built: the inputs it covers and its relation, whose fields are the global ones listed. */
    private record Part(Set<Integer> leaves, Relation relation, List<Integer> fields) {
    }

    Relation plan(final Join root) {
        flatten(root, 0);
        final int total = root.getRowType().getFieldCount();
        final int[] leafOf = new int[total];
        for (int l = 0; l < leaves.size(); l++) {
            final int from = offsets.get(l);
            Arrays.fill(leafOf, from, from + leaves.get(l).getRowType().getFieldCount(), l);
        }
        final List<Part> parts = new ArrayList<>();
        final List<RexNode> pending = new ArrayList<>();
        final RexBuilder rex = root.getCluster().getRexBuilder();
        for (int l = 0; l < leaves.size(); l++) {
            final Relation r = translator.translate(leaves.get(l));
            final List<Integer> fields = new ArrayList<>();
            for (int f = 0; f < r.columns().size(); f++) {
                fields.add(offsets.get(l) + f);
            }
            parts.add(new Part(Set.of(l), r, fields));
        }
        for (final RexNode c : conjuncts) {
            final Set<Integer> ls = leavesOf(c, leafOf);
            if (ls.size() == 1) {
                final int l = ls.iterator().next();
                final Part p = parts.get(l);
                final RexNode local = RexUtil.shift(c, -offsets.get(l));
                parts.set(l, new Part(p.leaves(), translator.applyFilter(p.relation(),
                        new RexTranslator(p.relation()).translate(local)), p.fields()));
            } else if (!c.isAlwaysTrue()) {
                pending.add(c);
            }
        }
        while (parts.size() > 1) {
            int bestA = -1;
            int bestB = -1;
            double best = Double.MAX_VALUE;
            for (int a = 0; a < parts.size(); a++) {
                for (int b = a + 1; b < parts.size(); b++) {
                    final double estimate = estimate(parts.get(a), parts.get(b), pending, leafOf);
                    if (estimate < best) {
                        best = estimate;
                        bestA = a;
                        bestB = b;
                    }
                }
            }
            if (bestA < 0) {
                bestA = smallest(parts, -1);
                bestB = smallest(parts, bestA);
            }
            final Part a = parts.get(bestA);
            final Part b = parts.get(bestB);
            final Part probe = a.relation().rows() >= b.relation().rows() ? a : b;
            final Part build = probe == a ? b : a;
            final Set<Integer> union = new HashSet<>(probe.leaves());
            union.addAll(build.leaves());
            final List<RexNode> here = new ArrayList<>();
            for (final RexNode c : new ArrayList<>(pending)) {
                if (union.containsAll(leavesOf(c, leafOf))) {
                    here.add(c);
                    pending.remove(c);
                }
            }
            final List<Integer> fields = new ArrayList<>(probe.fields());
            fields.addAll(build.fields());
            final RexNode condition = localize(RexUtil.composeConjunction(rex, here), fields, total);
            final Relation joined = translator.pair(JoinType.INNER, probe.relation(), build.relation(), condition);
            parts.remove(Math.max(bestA, bestB));
            parts.remove(Math.min(bestA, bestB));
            parts.add(new Part(union, joined, fields));
        }
        return inGlobalOrder(parts.get(0), total);
    }

    private void flatten(final RelNode rel, final int offset) {
        if (rel instanceof Join j && j.getJoinType() == JoinRelType.INNER && !RelTranslator.isSemiJoin(j)) {
            flatten(j.getLeft(), offset);
            flatten(j.getRight(), offset + j.getLeft().getRowType().getFieldCount());
            addConjuncts(j.getCondition(), offset, j.getCluster().getRexBuilder());
        } else if (rel instanceof Filter f && f.getInput() instanceof Join j && j.getJoinType() == JoinRelType.INNER
                && !RelTranslator.isSemiJoin(j)) {
            flatten(j, offset);
            addConjuncts(f.getCondition(), offset, f.getCluster().getRexBuilder());
        } else {
            leaves.add(rel);
            offsets.add(offset);
        }
    }

    private void addConjuncts(final RexNode condition, final int offset, final RexBuilder rex) {
        for (final RexNode c : RelTranslator.conjuncts(condition, rex)) {
            conjuncts.add(RexUtil.shift(c, offset));
        }
    }

    private static Set<Integer> leavesOf(final RexNode c, final int[] leafOf) {
        final Set<Integer> out = new HashSet<>();
        for (final int f : ImmutableBitSet.of(RelTranslator.fieldsOf(c))) {
            out.add(leafOf[f]);
        }
        return out;
    }

    /** The estimated rows of joining two parts on the equalities between them, or MAX_VALUE when there are none. */
    private static double estimate(final Part a, final Part b, final List<RexNode> pending, final int[] leafOf) {
        double keyDistinct = -1;
        for (final RexNode c : pending) {
            if (c.getKind() != SqlKind.EQUALS || !(c instanceof RexCall call)
                    || !(call.getOperands().get(0) instanceof RexInputRef x)
                    || !(call.getOperands().get(1) instanceof RexInputRef y)) {
                continue;
            }
            final int ia = a.fields().indexOf(x.getIndex());
            final int ib = b.fields().indexOf(y.getIndex());
            final int ja = a.fields().indexOf(y.getIndex());
            final int jb = b.fields().indexOf(x.getIndex());
            if (ia >= 0 && ib >= 0) {
                keyDistinct = Math.max(keyDistinct, Math.max(a.relation().distinctOf(ia), b.relation().distinctOf(ib)));
            } else if (ja >= 0 && jb >= 0) {
                keyDistinct = Math.max(keyDistinct, Math.max(a.relation().distinctOf(ja), b.relation().distinctOf(jb)));
            }
        }
        return keyDistinct < 0 ? Double.MAX_VALUE : a.relation().rows() * b.relation().rows() / Math.max(1, keyDistinct);
    }

    private static int smallest(final List<Part> parts, final int except) {
        int best = -1;
        for (int i = 0; i < parts.size(); i++) {
            if (i != except && (best < 0 || parts.get(i).relation().rows() < parts.get(best).relation().rows())) {
                best = i;
            }
        }
        return best;
    }

    /** A condition over global fields rewritten over a part's fields, in that part's order. */
    private static RexNode localize(final RexNode condition, final List<Integer> fields, final int total) {
        final int[] map = new int[total];
        Arrays.fill(map, -1);
        for (int i = 0; i < fields.size(); i++) {
            map[fields.get(i)] = i;
        }
        return condition.accept(new org.apache.calcite.rex.RexShuttle() {
            @Override
            public RexNode visitInputRef(final RexInputRef ref) {
                return new RexInputRef(map[ref.getIndex()], ref.getType());
            }
        });
    }

    private static Relation inGlobalOrder(final Part part, final int total) {
        final Relation r = part.relation();
        final List<String> columns = new ArrayList<>();
        final StoredColumn[] stored = new StoredColumn[total];
        for (int g = 0; g < total; g++) {
            final int i = part.fields().indexOf(g);
            columns.add(r.column(i));
            stored[g] = r.stats()[i];
        }
        return new Relation(r.plan(), columns, r.doubles(), r.rows(), stored);
    }
}
