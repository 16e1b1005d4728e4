package io.sluice.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.metadata.NullSentinel;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexInterpreter;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * An uncorrelated {@code x NOT IN (SELECT y FROM s)} as Calcite's subquery removal writes it when x
 * or y may be NULL:
 *
 * <pre>
 * Filter(OR(=(c, 0), AND(IS NULL(i), >=(ck, c), IS NOT NULL(x))))     -- or an equivalent form
 *   Join(left, x = y)
 *     Join(inner, true)
 *       probe
 *       Aggregate(group={}, c=COUNT(), ck=COUNT(y)) over s            -- maybe under a Project
 *     Aggregate(group={y}, i=LITERAL_AGG(true)) over s
 * </pre>
 *
 * A cross join with the counts and a left join with the distinct keys: a null-aware anti join
 * computes the same in one pass. The filter's NOT IN terms are recognised by what they compute,
 * not how they are written: evaluated over every case (empty subquery; x NULL; a match; no match
 * with or without a NULL y) they must be TRUE exactly where NOT IN is. Terms over the probe's own
 * fields only are kept as {@link #rest}.
 *
 * @param probe    the rows x comes from
 * @param probeKey x's field in the probe
 * @param subquery s, the rows y comes from
 * @param buildKey y's field in s
 * @param rest     the filter's other terms, over the probe's fields (same numbering as the join's output)
 */
record NotInSubquery(RelNode probe, int probeKey, RelNode subquery, int buildKey, List<RexNode> rest) {
    private static final BigDecimal ROWS = BigDecimal.valueOf(3);
    private static final BigDecimal ROWS_BUT_A_NULL = BigDecimal.valueOf(2);
    private static final BigDecimal NONE = BigDecimal.ZERO;

    /** What a field of the count side counts. */
    private enum Count { ROWS, KEYS }

    /** The NOT IN under a filter, or null when the filter is anything else. */
    static NotInSubquery of(final Filter f) {
        if (!(f.getInput() instanceof Join outer) || outer.getJoinType() != JoinRelType.LEFT
                || !(outer.getLeft() instanceof Join cross) || cross.getJoinType() != JoinRelType.INNER
                || !cross.getCondition().isAlwaysTrue()) {
            return null;
        }
        final DistinctInput keys = DistinctInput.of(outer.getRight());
        if (keys == null || keys.fields().length != 2 || keys.fields()[0] < 0 || keys.fields()[1] >= 0) {
            return null;
        }
        final int y = keys.fields()[0];
        final RelNode s = keys.input();
        final int probeFields = cross.getLeft().getRowType().getFieldCount();
        final int crossFields = cross.getRowType().getFieldCount();
        final Count[] counts = counts(cross.getRight(), s, y);
        if (counts == null) {
            return null;
        }
        final int x = probeKey(outer.getCondition(), probeFields, crossFields);
        if (x < 0) {
            return null;
        }
        final int matchField = crossFields + 1;
        final ImmutableBitSet probeOnly = ImmutableBitSet.range(probeFields);
        final List<RexNode> notIn = new ArrayList<>();
        final List<RexNode> rest = new ArrayList<>();
        for (final RexNode c : RexUtil.flattenAnd(List.of(f.getCondition()))) {
            final ImmutableBitSet used = RelTranslator.fieldsOf(c);
            if (probeOnly.contains(used)) {
                rest.add(c);
                continue;
            }
            for (final int field : used) {
                if (field != x && field != matchField && (field < probeFields || field >= crossFields)) {
                    return null;
                }
            }
            notIn.add(c);
        }
        if (notIn.isEmpty()) {
            return null;
        }
        final boolean xNullable = cross.getLeft().getRowType().getFieldList().get(x).getType().isNullable();
        final boolean yNullable = s.getRowType().getFieldList().get(y).getType().isNullable();
        if (!computesNotIn(notIn, x, xNullable, yNullable, probeFields, counts, matchField)) {
            return null;
        }
        return new NotInSubquery(cross.getLeft(), x, s, y, rest);
    }

    /**
     * What each field of the count side counts: COUNT() over s, or COUNT(y) over s (when y is never
     * NULL Calcite writes COUNT() for both); null when the side is anything else.
     */
    private static Count[] counts(final RelNode side, final RelNode s, final int y) {
        int[] fromAggregate = null;
        RelNode below = side;
        if (side instanceof Project p) {
            fromAggregate = new int[p.getProjects().size()];
            for (int i = 0; i < fromAggregate.length; i++) {
                if (!(p.getProjects().get(i) instanceof RexInputRef ref)) {
                    return null;
                }
                fromAggregate[i] = ref.getIndex();
            }
            below = p.getInput();
        }
        if (!(below instanceof Aggregate a) || a.getGroupType() != Aggregate.Group.SIMPLE || !a.getGroupSet().isEmpty()
                || !RelOptUtil.toString(a.getInput()).equals(RelOptUtil.toString(s))) {
            return null;
        }
        final Count[] ofAggregate = new Count[a.getAggCallList().size()];
        for (int i = 0; i < ofAggregate.length; i++) {
            final AggregateCall call = a.getAggCallList().get(i);
            if (call.getAggregation().getKind() != SqlKind.COUNT || call.isDistinct() || call.filterArg >= 0) {
                return null;
            }
            if (call.getArgList().isEmpty()) {
                ofAggregate[i] = Count.ROWS;
            } else if (call.getArgList().size() == 1 && call.getArgList().get(0) == y) {
                ofAggregate[i] = Count.KEYS;
            } else {
                return null;
            }
        }
        if (fromAggregate == null) {
            return ofAggregate;
        }
        final Count[] out = new Count[fromAggregate.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = ofAggregate[fromAggregate[i]];
        }
        return out;
    }

    /** x's field when the left join's condition is {@code x = y} with x in the probe, else -1. */
    private static int probeKey(final RexNode condition, final int probeFields, final int crossFields) {
        if (condition.getKind() != SqlKind.EQUALS || !(condition instanceof RexCall call)
                || !(call.getOperands().get(0) instanceof RexInputRef a)
                || !(call.getOperands().get(1) instanceof RexInputRef b)) {
            return -1;
        }
        if (a.getIndex() < probeFields && b.getIndex() == crossFields) {
            return a.getIndex();
        }
        if (b.getIndex() < probeFields && a.getIndex() == crossFields) {
            return b.getIndex();
        }
        return -1;
    }

    /** Whether the terms are TRUE exactly where {@code x NOT IN (s)} is, in every case of x and s. */
    private static boolean computesNotIn(final List<RexNode> terms, final int x, final boolean xNullable,
                                         final boolean yNullable, final int countBase, final Count[] counts, final int matchField) {
        try {
            // Empty subquery: TRUE whatever x is.
            if (!holds(terms, x, null, countBase, counts, matchField, NONE, NONE, false, true)
                    || !holds(terms, x, BigDecimal.ONE, countBase, counts, matchField, NONE, NONE, false, true)) {
                return false;
            }
            for (final BigDecimal keys : yNullable ? List.of(ROWS, ROWS_BUT_A_NULL) : List.of(ROWS)) {
                final boolean noNullKey = keys == ROWS;
                if (xNullable && !holds(terms, x, null, countBase, counts, matchField, ROWS, keys, false, false)) {
                    return false;
                }
                if (!holds(terms, x, BigDecimal.ONE, countBase, counts, matchField, ROWS, keys, true, false)
                        || !holds(terms, x, BigDecimal.ONE, countBase, counts, matchField, ROWS, keys, false, noNullKey)) {
                    return false;
                }
            }
            return true;
        } catch (final RuntimeException e) {
            // A term the interpreter cannot evaluate: not the form recognised here.
            return false;
        }
    }

    /** Whether the terms evaluate to {@code expected} (TRUE, or not TRUE) in one case. */
    private static boolean holds(final List<RexNode> terms, final int x, final BigDecimal xValue, final int countBase,
                                 final Count[] counts, final int matchField, final BigDecimal rows, final BigDecimal keys,
                                 final boolean matched, final boolean expected) {
        final Map<RexNode, Comparable> values = new HashMap<>();
        boolean all = true;
        for (final RexNode term : terms) {
            for (final int field : RelTranslator.fieldsOf(term)) {
                final Comparable v;
                if (field == x) {
                    v = xValue == null ? NullSentinel.INSTANCE : xValue;
                } else if (field == matchField) {
                    v = matched ? Boolean.TRUE : NullSentinel.INSTANCE;
                } else {
                    v = counts[field - countBase] == Count.ROWS ? rows : keys;
                }
                values.put(new RexInputRef(field, inputType(term, field)), v);
            }
            all &= RexInterpreter.evaluate(term, values) == Boolean.TRUE;
        }
        return all == expected;
    }

    /** The type the term reads a field as. */
    private static org.apache.calcite.rel.type.RelDataType inputType(final RexNode term, final int field) {
        final org.apache.calcite.rel.type.RelDataType[] found = new org.apache.calcite.rel.type.RelDataType[1];
        term.accept(new org.apache.calcite.rex.RexVisitorImpl<Void>(true) {
            @Override
            public Void visitInputRef(final RexInputRef ref) {
                if (ref.getIndex() == field) {
                    found[0] = ref.getType();
                }
                return null;
            }
        });
        return found[0];
    }
}
