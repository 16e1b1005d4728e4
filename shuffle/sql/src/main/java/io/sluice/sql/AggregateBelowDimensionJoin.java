package io.sluice.sql;

import io.sluice.format.spi.BlockTable;
import io.sluice.zonemap.TableSketch;
import io.sluice.zonemap.TableStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Eager aggregation below a dimension's inner join: an aggregation over inner joins whose aggregates
 * ({@code SUM}, {@code COUNT}, {@code MIN}, {@code MAX}) read only the other inputs, grouped partly by
 * columns of one input, a table joined by equalities only (the dimension, e.g. {@code customer}), first
 * aggregates the other inputs by their grouping columns and the dimension's join keys
 * ({@code ss_customer_sk}), joins the partial groups to the dimension, and only then groups by the
 * dimension's columns. TPC-DS Q4, Q11 and Q74 group about all store sales by seven customer columns, six
 * of them strings: the sales are instead grouped by two integers, and only the few thousand partial groups
 * meet the customer table and its strings.
 *
 * <p>Why it is exact, whatever the keys hold: a row of the other inputs meets exactly the dimension rows
 * equal to its join keys (none when a key is NULL, as {@code =} never matches a NULL), so all rows of a
 * partial group meet the same dimension rows, each of which puts the whole group into one final group;
 * the final aggregation combines the partial results of its groups (sums and counts add, minima and maxima
 * combine), also where a dimension key repeats and a partial group meets several rows.
 *
 * <p>When: the dimension is a table read whole (no filter of its own: a filtered dimension removes rows
 * the join would otherwise drop before grouping) that gives the grouping more than its join keys, with at
 * most half the rows of the largest table the other inputs read, those inputs are joined to each other
 * without a cross join, its grouping columns have at least half as many distinct values as its join keys,
 * so that grouping by the keys makes at most about twice the groups the query makes (customer columns that
 * tell customers apart: yes; an integer column many keys share: no), and the partial groups are at most half
 * the rows they group (Q4's customer key and year: a few groups per customer; Q23's item key and date: about
 * a group per sale, where grouping first is pure cost). Distinct counts are the HLL estimates of the sketch a
 * table keeps where it keeps one, else the zonemap estimates, which count a string column in few blocks as
 * about unique; a column of a table the others reach by its key (a year of {@code date_dim}) counts the share
 * of its values the referring column's distinct keys select. The other side's rows are its largest table's,
 * before filters.
 */
final class AggregateBelowDimensionJoin extends RelShuttleImpl {
    /** The dimension's grouping columns have at least this share of its join keys' distinct values. */
    private static final double GROUPS_PER_KEY = 0.5;
    /** The partial groups are at most this share of the rows they group. */
    private static final double PARTIAL_GROUPS_PER_ROW = 0.5;
    /** A column with at least this share of its table's rows as distinct values is taken for a key. */
    private static final double KEY_SHARE = 0.9;

    private final RelBuilder builder;
    private final Function<BlockTable, TableStats> stats;
    /** The sketch each table keeps, by name, empty for a table that keeps none. */
    private final Map<String, Optional<TableSketch>> sketches = new HashMap<>();

    private AggregateBelowDimensionJoin(final RelBuilder builder, final Function<BlockTable, TableStats> stats) {
        this.builder = builder;
        this.stats = stats;
    }

    /** The tree with each such aggregation split around its dimension's join. */
    static RelNode apply(final RelNode rel, final RelBuilder builder, final Function<BlockTable, TableStats> stats) {
        return rel.accept(new AggregateBelowDimensionJoin(builder, stats));
    }

    /** The inner joins under an aggregation, flattened: the inputs in order, where each starts, and the conjuncts over all fields. */
    private record Inputs(List<RelNode> leaves, int[] offsets, List<RexNode> conjuncts, int fieldCount) {
        int leafOf(final int field) {
            int l = offsets.length - 1;
            while (offsets[l] > field) {
                l--;
            }
            return l;
        }

        ImmutableBitSet fieldsOf(final int leaf) {
            return ImmutableBitSet.range(offsets[leaf], offsets[leaf] + leaves.get(leaf).getRowType().getFieldCount());
        }
    }

    @Override
    public RelNode visit(final LogicalAggregate aggregate) {
        final RelNode visited = super.visit(aggregate);
        if (visited instanceof Aggregate a && splittable(a)) {
            final RelNode input = a.getInput();
            final Project project = input instanceof Project p ? p : null;
            if ((project == null ? input : project.getInput()) instanceof Join join
                    && join.getJoinType() == JoinRelType.INNER) {
                final List<RexNode> items = project == null ? identity(join) : project.getProjects();
                final Inputs inputs = flatten(join);
                for (int d = 0; d < inputs.leaves().size(); d++) {
                    final RelNode rewritten = rewrite(a, items, inputs, d);
                    if (rewritten != null) {
                        return rewritten;
                    }
                }
            }
        }
        return visited;
    }

    /** A plain GROUP BY whose aggregates are COUNT, SUM, MIN or MAX, none DISTINCT, filtered or ordered. */
    private static boolean splittable(final Aggregate a) {
        if (a.getGroupType() != Aggregate.Group.SIMPLE || a.getAggCallList().isEmpty()) {
            return false;
        }
        for (final AggregateCall call : a.getAggCallList()) {
            final SqlKind kind = call.getAggregation().getKind();
            if (kind != SqlKind.COUNT && kind != SqlKind.SUM && kind != SqlKind.SUM0 && kind != SqlKind.MIN
                    && kind != SqlKind.MAX || call.isDistinct() || call.filterArg >= 0
                    || !call.collation.getFieldCollations().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private List<RexNode> identity(final RelNode rel) {
        final List<RexNode> refs = new ArrayList<>();
        for (int f = 0; f < rel.getRowType().getFieldCount(); f++) {
            refs.add(RexInputRef.of(f, rel.getRowType()));
        }
        return refs;
    }

    private static Inputs flatten(final Join join) {
        final List<RelNode> leaves = new ArrayList<>();
        final List<Integer> offsets = new ArrayList<>();
        final List<RexNode> conjuncts = new ArrayList<>();
        flatten(join, 0, leaves, offsets, conjuncts);
        return new Inputs(leaves, offsets.stream().mapToInt(Integer::intValue).toArray(), conjuncts,
                join.getRowType().getFieldCount());
    }

    private static void flatten(final RelNode rel, final int offset, final List<RelNode> leaves,
                                final List<Integer> offsets, final List<RexNode> conjuncts) {
        if (rel instanceof Join j && j.getJoinType() == JoinRelType.INNER) {
            flatten(j.getLeft(), offset, leaves, offsets, conjuncts);
            flatten(j.getRight(), offset + j.getLeft().getRowType().getFieldCount(), leaves, offsets, conjuncts);
            for (final RexNode c : RelOptUtil.conjunctions(j.getCondition())) {
                if (!c.isAlwaysTrue()) {
                    conjuncts.add(shift(c, offset));
                }
            }
            return;
        }
        leaves.add(rel);
        offsets.add(offset);
    }

    /**
     * The rewritten aggregation with input {@code d} as the dimension, or null when it does not qualify.
     *
     * @param a      the aggregation
     * @param items  the expressions it reads, over the join's fields
     * @param inputs the join's inputs and conjuncts
     * @param d      the input tried as the dimension
     */
    private RelNode rewrite(final Aggregate a, final List<RexNode> items, final Inputs inputs, final int d) {
        if (!(inputs.leaves().get(d) instanceof TableScan scan) || scan.getTable().unwrap(CatalogTable.class) == null) {
            return null;
        }
        final ImmutableBitSet dimension = inputs.fieldsOf(d);
        // The join's equalities between the dimension's fields and the others' (dimension field, other field).
        final List<int[]> keys = new ArrayList<>();
        final List<RexNode> others = new ArrayList<>();
        for (final RexNode c : inputs.conjuncts()) {
            final ImmutableBitSet bits = RelOptUtil.InputFinder.bits(c);
            if (!bits.intersects(dimension)) {
                others.add(c);
            } else if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call
                    && call.getOperands().get(0) instanceof RexInputRef x && call.getOperands().get(1) instanceof RexInputRef y
                    && dimension.get(x.getIndex()) != dimension.get(y.getIndex())) {
                keys.add(dimension.get(x.getIndex()) ? new int[] {x.getIndex(), y.getIndex()}
                        : new int[] {y.getIndex(), x.getIndex()});
            } else {
                return null;
            }
        }
        if (keys.isEmpty()) {
            return null;
        }
        final List<Integer> dimensionGroups = new ArrayList<>();
        for (final int g : a.getGroupSet()) {
            final ImmutableBitSet bits = RelOptUtil.InputFinder.bits(items.get(g));
            if (dimension.contains(bits) && !bits.isEmpty()) {
                dimensionGroups.add(g);
            } else if (bits.intersects(dimension)) {
                return null;
            }
        }
        if (!groupsByMoreThanKeys(dimensionGroups, items, keys)) {
            return null;
        }
        for (final AggregateCall call : a.getAggCallList()) {
            for (final int arg : call.getArgList()) {
                if (RelOptUtil.InputFinder.bits(items.get(arg)).intersects(dimension)) {
                    return null;
                }
            }
        }
        if (!connected(inputs, d, others) || !smallerThanTheOthers(scan, inputs, d)
                || !fewMoreGroups(scan, inputs.offsets()[d], keys, dimensionGroups, items)
                || !partialGroupsRemoveRows(a, items, inputs, d, keys, others)) {
            return null;
        }
        return split(a, items, inputs, d, keys, others);
    }

    /**
     * Whether the dimension gives the grouping more than its join keys: grouped by its keys alone (TPC-DS Q23's
     * {@code c_customer_sk}), the join only filters, and grouping first saves nothing.
     */
    private static boolean groupsByMoreThanKeys(final List<Integer> dimensionGroups, final List<RexNode> items,
                                                final List<int[]> keys) {
        for (final int g : dimensionGroups) {
            if (!(items.get(g) instanceof RexInputRef ref) || keys.stream().noneMatch(k -> k[0] == ref.getIndex())) {
                return true;
            }
        }
        return false;
    }

    /** Whether the other inputs are joined to each other by their conjuncts without a cross join. */
    private static boolean connected(final Inputs inputs, final int d, final List<RexNode> others) {
        final int n = inputs.leaves().size();
        final int[] part = new int[n];
        for (int l = 0; l < n; l++) {
            part[l] = l;
        }
        for (final RexNode c : others) {
            int first = -1;
            for (final int f : RelOptUtil.InputFinder.bits(c)) {
                final int l = find(part, inputs.leafOf(f));
                if (first < 0) {
                    first = l;
                } else if (l != first) {
                    part[l] = first;
                }
            }
        }
        int root = -1;
        for (int l = 0; l < n; l++) {
            if (l != d) {
                final int r = find(part, l);
                if (root >= 0 && r != root) {
                    return false;
                }
                root = r;
            }
        }
        return true;
    }

    private static int find(final int[] part, final int leaf) {
        int l = leaf;
        while (part[l] != l) {
            l = part[l];
        }
        return l;
    }

    /**
     * Whether the dimension has at most half the rows of the largest table the other inputs read: grouping the
     * other side pays when it is the large one (the sales, not the customers).
     */
    private boolean smallerThanTheOthers(final TableScan scan, final Inputs inputs, final int d) {
        long largest = 0;
        for (int l = 0; l < inputs.leaves().size(); l++) {
            if (l != d) {
                largest = Math.max(largest, tableRows(inputs.leaves().get(l)));
            }
        }
        return 2 * tableRows(scan) <= largest;
    }

    /** The rows of the table an input reads through filters and projections, 0 for other inputs. */
    private long tableRows(final RelNode rel) {
        if (rel instanceof TableScan s && s.getTable().unwrap(CatalogTable.class) != null) {
            return stats.apply(s.getTable().unwrap(CatalogTable.class).table()).rowCount();
        }
        if (rel instanceof org.apache.calcite.rel.core.Filter || rel instanceof Project) {
            return tableRows(rel.getInput(0));
        }
        return 0;
    }

    /**
     * Whether the dimension's grouping columns have about as many distinct values as its join keys (at least
     * {@link #GROUPS_PER_KEY} of them), each side's estimate capped by the table's rows; a grouping expression
     * other than a column counts one value.
     */
    private boolean fewMoreGroups(final TableScan scan, final int offset, final List<int[]> keys,
                                  final List<Integer> dimensionGroups, final List<RexNode> items) {
        final TableStats ts = stats.apply(scan.getTable().unwrap(CatalogTable.class).table());
        final double rows = Math.max(1, ts.rowCount());
        double keyValues = 1;
        final boolean[] seen = new boolean[scan.getRowType().getFieldCount()];
        for (final int[] k : keys) {
            final int column = k[0] - offset;
            if (!seen[column]) {
                seen[column] = true;
                keyValues = Math.min(rows, keyValues * Math.max(1, distinct(scan.getTable().unwrap(CatalogTable.class)
                        .table(), column)));
            }
        }
        double groupValues = 1;
        Arrays.fill(seen, false);
        for (final int g : dimensionGroups) {
            if (items.get(g) instanceof RexInputRef ref && !seen[ref.getIndex() - offset]) {
                seen[ref.getIndex() - offset] = true;
                groupValues = Math.min(rows, groupValues * Math.max(1, distinct(scan.getTable().unwrap(CatalogTable.class)
                        .table(), ref.getIndex() - offset)));
            }
        }
        return groupValues >= GROUPS_PER_KEY * keyValues;
    }

    /**
     * Whether grouping the other inputs by their grouping columns and join keys removes rows: the estimated
     * partial groups, the product of those columns' distinct counts capped by the rows of the largest table the
     * other inputs read, are at most {@link #PARTIAL_GROUPS_PER_ROW} of those rows. Q23 groups store sales by
     * item key and date, about as many groups as sales, where grouping first is pure cost; Q4 groups them by
     * customer key and year, a few groups per customer. A column that is not read from a table as is counts as
     * many values as rows.
     */
    private boolean partialGroupsRemoveRows(final Aggregate a, final List<RexNode> items, final Inputs inputs,
                                            final int d, final List<int[]> keys, final List<RexNode> others) {
        long rows = 0;
        for (int l = 0; l < inputs.leaves().size(); l++) {
            if (l != d) {
                rows = Math.max(rows, tableRows(inputs.leaves().get(l)));
            }
        }
        final ImmutableBitSet dimension = inputs.fieldsOf(d);
        ImmutableBitSet columns = ImmutableBitSet.of();
        for (final int[] k : keys) {
            columns = columns.set(k[1]);
        }
        for (final int g : a.getGroupSet()) {
            final ImmutableBitSet bits = RelOptUtil.InputFinder.bits(items.get(g));
            if (!bits.intersects(dimension)) {
                columns = columns.union(bits);
            }
        }
        double groups = 1;
        for (final int f : columns) {
            final int l = inputs.leafOf(f);
            final double values = distinct(inputs.leaves().get(l), f - inputs.offsets()[l], rows)
                    * referencedShare(inputs, l, others, rows);
            groups = Math.min(rows, groups * Math.max(1, values));
        }
        return groups <= PARTIAL_GROUPS_PER_ROW * rows;
    }

    /**
     * The share of an input's rows the others can meet, where it is joined by a key of its own (a column with
     * about as many distinct values as rows, {@code d_date_sk}) to another input's column ({@code ss_sold_date_sk}):
     * that column's distinct values over the input's rows, else 1. Its columns are counted with that share of
     * their values: a dimension stored in key order, as {@code date_dim}, gives the keys the sales refer to (a few
     * years of days) about that share of its years, not all of them.
     */
    private double referencedShare(final Inputs inputs, final int leaf, final List<RexNode> others, final double otherwise) {
        final double leafRows = tableRows(inputs.leaves().get(leaf));
        if (leafRows <= 0) {
            return 1;
        }
        double share = 1;
        for (final RexNode c : others) {
            if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call
                    && call.getOperands().get(0) instanceof RexInputRef x && call.getOperands().get(1) instanceof RexInputRef y) {
                final int own = inputs.leafOf(x.getIndex()) == leaf ? x.getIndex() : y.getIndex();
                final int other = own == x.getIndex() ? y.getIndex() : x.getIndex();
                final int otherLeaf = inputs.leafOf(other);
                if (inputs.leafOf(own) != leaf || otherLeaf == leaf) {
                    continue;
                }
                final double ownValues = distinct(inputs.leaves().get(leaf), own - inputs.offsets()[leaf], 0);
                if (ownValues >= KEY_SHARE * leafRows) {
                    final double referenced = distinct(inputs.leaves().get(otherLeaf), other - inputs.offsets()[otherLeaf],
                            otherwise);
                    share = Math.min(share, referenced / leafRows);
                }
            }
        }
        return share;
    }

    /**
     * The distinct values of a field of an input that reads a table's column as is, through filters and
     * projections; {@code otherwise} for any other field.
     */
    private double distinct(final RelNode rel, final int field, final double otherwise) {
        if (rel instanceof TableScan s && s.getTable().unwrap(CatalogTable.class) != null) {
            return distinct(s.getTable().unwrap(CatalogTable.class).table(), field);
        }
        if (rel instanceof org.apache.calcite.rel.core.Filter f) {
            return distinct(f.getInput(), field, otherwise);
        }
        if (rel instanceof Project p && p.getProjects().get(field) instanceof RexInputRef ref) {
            return distinct(p.getInput(), ref.getIndex(), otherwise);
        }
        return otherwise;
    }

    /**
     * A column's distinct values: the HLL estimate of the sketch the table keeps where it keeps one (within
     * about 2%), else the zonemap estimate (which counts a string column in few blocks as about unique).
     */
    private double distinct(final BlockTable table, final int column) {
        final TableSketch sketch = sketches.computeIfAbsent(table.name(), n -> Optional.ofNullable(TableSketch.of(table)))
                .orElse(null);
        final TableStats ts = stats.apply(table);
        return sketch == null ? ts.column(column).distinctCount()
                : Math.min(ts.rowCount(), sketch.column(column).distinctEstimate());
    }

    /** Builds dimension JOIN (partial aggregation of the others), then the final aggregation, as the original's row type. */
    private RelNode split(final Aggregate a, final List<RexNode> items, final Inputs inputs, final int d,
                          final List<int[]> keys, final List<RexNode> others) {
        // Global field -> field of the other inputs joined in order without the dimension.
        final int[] rest = new int[inputs.fieldCount()];
        Arrays.fill(rest, -1);
        int next = 0;
        for (int l = 0; l < inputs.leaves().size(); l++) {
            if (l != d) {
                for (final int f : inputs.fieldsOf(l)) {
                    rest[f] = next++;
                }
            }
        }
        buildOthers(inputs, d, others, rest);
        // The partial aggregation's input: the others' join keys, their grouping expressions, the aggregates' arguments.
        final List<Integer> otherKeys = new ArrayList<>();
        for (final int[] k : keys) {
            if (!otherKeys.contains(k[1])) {
                otherKeys.add(k[1]);
            }
        }
        final List<RexNode> partialInput = new ArrayList<>();
        for (final int f : otherKeys) {
            partialInput.add(builder.field(rest[f]));
        }
        final List<Integer> otherGroups = new ArrayList<>();
        for (final int g : a.getGroupSet()) {
            if (!RelOptUtil.InputFinder.bits(items.get(g)).intersects(inputs.fieldsOf(d))) {
                otherGroups.add(g);
                partialInput.add(remap(items.get(g), rest));
            }
        }
        final int groupCount = partialInput.size();
        for (final AggregateCall call : a.getAggCallList()) {
            for (final int arg : call.getArgList()) {
                partialInput.add(remap(items.get(arg), rest));
            }
        }
        builder.project(partialInput);
        final List<RelBuilder.AggCall> partial = new ArrayList<>();
        int argAt = groupCount;
        for (final AggregateCall call : a.getAggCallList()) {
            final List<RexNode> args = new ArrayList<>();
            for (int i = 0; i < call.getArgList().size(); i++) {
                args.add(builder.field(argAt++));
            }
            partial.add(partialCall(call, args));
        }
        builder.aggregate(builder.groupKey(ImmutableBitSet.range(groupCount)), partial);
        final RelNode partials = builder.build();
        // The dimension joined to the partial groups on its keys.
        final int dimensionOffset = inputs.offsets()[d];
        final int dimensionFields = inputs.leaves().get(d).getRowType().getFieldCount();
        builder.push(inputs.leaves().get(d)).push(partials);
        final List<RexNode> equalities = new ArrayList<>();
        for (final int[] k : keys) {
            equalities.add(builder.equals(builder.field(2, 0, k[0] - dimensionOffset),
                    builder.field(2, 1, otherKeys.indexOf(k[1]))));
        }
        builder.join(JoinRelType.INNER, equalities);
        // The final aggregation: the original's grouping expressions, over the dimension's fields or the partial groups'.
        final int[] dimensionMap = new int[inputs.fieldCount()];
        Arrays.fill(dimensionMap, -1);
        for (final int f : inputs.fieldsOf(d)) {
            dimensionMap[f] = f - dimensionOffset;
        }
        final List<RexNode> finalInput = new ArrayList<>();
        for (final int g : a.getGroupSet()) {
            final int other = otherGroups.indexOf(g);
            finalInput.add(other >= 0 ? builder.field(dimensionFields + otherKeys.size() + other)
                    : remap(items.get(g), dimensionMap));
        }
        for (int j = 0; j < a.getAggCallList().size(); j++) {
            finalInput.add(builder.field(dimensionFields + groupCount + j));
        }
        // Named as the original's fields, which the projections above may refer to by name once merged.
        builder.project(finalInput, a.getRowType().getFieldNames());
        final int groups = a.getGroupCount();
        final List<RelBuilder.AggCall> combined = new ArrayList<>();
        for (int j = 0; j < a.getAggCallList().size(); j++) {
            combined.add(combine(a.getAggCallList().get(j).getAggregation().getKind(), builder.field(groups + j))
                    .as(a.getRowType().getFieldNames().get(groups + j)));
        }
        builder.aggregate(builder.groupKey(ImmutableBitSet.range(groups)), combined);
        for (int j = 0; j < a.getAggCallList().size(); j++) {
            if (!SqlTypeUtil.equalSansNullability(builder.field(groups + j).getType(),
                    a.getRowType().getFieldList().get(groups + j).getType())) {
                builder.clear();
                return null;
            }
        }
        return builder.convert(a.getRowType(), true).build();
    }

    /** Pushes the other inputs joined in their order, each conjunct where all its inputs have joined. */
    private void buildOthers(final Inputs inputs, final int d, final List<RexNode> others, final int[] rest) {
        final List<RexNode> pending = new ArrayList<>(others);
        ImmutableBitSet joined = ImmutableBitSet.of();
        boolean first = true;
        for (int l = 0; l < inputs.leaves().size(); l++) {
            if (l == d) {
                continue;
            }
            joined = joined.union(inputs.fieldsOf(l));
            builder.push(inputs.leaves().get(l));
            final List<RexNode> here = new ArrayList<>();
            for (int c = pending.size() - 1; c >= 0; c--) {
                if (joined.contains(RelOptUtil.InputFinder.bits(pending.get(c)))) {
                    here.add(0, remap(pending.remove(c), rest));
                }
            }
            if (first) {
                if (!here.isEmpty()) {
                    builder.filter(here);
                }
                first = false;
            } else {
                builder.join(JoinRelType.INNER, here.isEmpty() ? List.of(builder.literal(true)) : here);
            }
        }
    }

    /** The partial aggregate of one of the original's calls, over its arguments' fields. */
    private RelBuilder.AggCall partialCall(final AggregateCall call, final List<RexNode> args) {
        return switch (call.getAggregation().getKind()) {
            case COUNT -> builder.count(false, null, args);
            case SUM -> builder.sum(args.get(0));
            case SUM0 -> builder.aggregateCall(SqlStdOperatorTable.SUM0, args.get(0));
            case MIN -> builder.min(args.get(0));
            case MAX -> builder.max(args.get(0));
            default -> throw new IllegalArgumentException("not a splittable aggregate: " + call);
        };
    }

    /** The aggregate that combines partial results of one kind. */
    private RelBuilder.AggCall combine(final SqlKind kind, final RexNode partialResult) {
        return switch (kind) {
            case COUNT, SUM0 -> builder.aggregateCall(SqlStdOperatorTable.SUM0, partialResult);
            case SUM -> builder.sum(partialResult);
            case MIN -> builder.min(partialResult);
            case MAX -> builder.max(partialResult);
            default -> throw new IllegalArgumentException("not a splittable aggregate: " + kind);
        };
    }

    private static RexNode shift(final RexNode node, final int offset) {
        return offset == 0 ? node : node.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(final RexInputRef ref) {
                return new RexInputRef(ref.getIndex() + offset, ref.getType());
            }
        });
    }

    /** The expression over other fields: field f becomes {@code map[f]}. */
    private static RexNode remap(final RexNode node, final int[] map) {
        return node.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(final RexInputRef ref) {
                return new RexInputRef(map[ref.getIndex()], ref.getType());
            }
        });
    }
}
