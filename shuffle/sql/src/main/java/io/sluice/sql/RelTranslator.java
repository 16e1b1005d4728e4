package io.sluice.sql;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.AggregateFunction;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PlanNode;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.format.spi.BlockTable;
import io.sluice.zonemap.BlockPruner;
import io.sluice.zonemap.Predicate;
import io.sluice.zonemap.TableStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;
import org.roaringbitmap.RoaringBitmap;

/**
 * Translates a rewritten Calcite tree into a Sluice {@link Plan}, bottom up, one relational
 * operator at a time: filters go into the scans below them with the block pruning they imply
 * ({@link BlockPruning}), inner joins are reordered and given build sides from estimates
 * ({@link JoinOrder}), a join without an equality between its sides becomes a nested-loop join, an inner join with a duplicate-free subquery on its keys and a left join
 * kept only where nothing matched become semi and anti joins, and Calcite's form of NOT IN over
 * keys that may be NULL a null-aware anti join ({@link NotInSubquery}). Each decision's estimates
 * are recorded for EXPLAIN.
 */
final class RelTranslator {
    /** The field Calcite projects a QUALIFY condition as, for the filter above the window to read. */
    private static final String QUALIFY_FIELD = "QualifyExpression";
    private final Function<String, BlockTable> tables;
    private final Function<BlockTable, TableStats> stats;
    private final List<String> tableNames;
    private final ColumnNames names = new ColumnNames();
    private final List<String> estimates = new ArrayList<>();
    /**
     * The aggregations translated so far, by the text of their tree: one that occurs twice (a WITH query
     * read twice, Q15's revenue) is one plan node twice, its groups computed once.
     */
    private final java.util.Map<String, Relation> aggregations = new java.util.HashMap<>();
    private org.apache.calcite.rex.RexBuilder rexBuilder;

    RelTranslator(final Function<String, BlockTable> tables, final List<String> tableNames,
                  final Function<BlockTable, TableStats> stats) {
        this.tables = tables;
        this.tableNames = tableNames;
        this.stats = stats;
    }

    /** The estimates behind each scan and join, one line each, in the order they were planned. */
    List<String> estimates() {
        return estimates;
    }

    ColumnNames names() {
        return names;
    }

    Relation translate(final RelNode rel) {
        if (rexBuilder == null) {
            rexBuilder = rel.getCluster().getRexBuilder();
        }
        if (rel instanceof TableScan s) {
            return scan(s);
        }
        if (rel instanceof Filter f) {
            return filter(f);
        }
        if (rel instanceof Project p) {
            return project(p);
        }
        if (rel instanceof org.apache.calcite.rel.core.Aggregate a) {
            final String tree = org.apache.calcite.plan.RelOptUtil.toString(a);
            final Relation done = aggregations.get(tree);
            if (done != null) {
                return done;
            }
            final Relation translated = aggregate(a);
            aggregations.put(tree, translated);
            return translated;
        }
        if (rel instanceof Join j) {
            return join(j);
        }
        if (rel instanceof Sort s) {
            return sort(s);
        }
        if (rel instanceof SetOp op) {
            return new SetOperations(this).plan(op);
        }
        if (rel instanceof org.apache.calcite.rel.core.Window w) {
            return new WindowFunctions(this).plan(w);
        }
        if (rel instanceof org.apache.calcite.rel.core.Values v && !tableNames.isEmpty()) {
            final BlockTable first = tables.apply(tableNames.get(0));
            return new ConstantRows(this, first.name(), first.schema().field(0).name()).plan(v);
        }
        throw SqlException.unsupported(construct(rel) + " is not supported yet (Sluice plans table scans, filters,"
                + " projections, aggregations, joins, sorts, set operations and window functions)");
    }

    /** What a relational operator Sluice does not plan stands for in the statement. */
    private static String construct(final RelNode rel) {
        return switch (rel.getRelTypeName()) {
            case "LogicalValues" -> "a query over constant rows (VALUES, SELECT without FROM, or a condition that"
                    + " is always false)";
            case "LogicalCorrelate" -> "a subquery that refers to the outer query in this place";
            case "LogicalTableFunctionScan" -> "a table function";
            case "LogicalMatch" -> "MATCH_RECOGNIZE";
            case "LogicalSnapshot" -> "FOR SYSTEM_TIME AS OF";
            case "LogicalSample" -> "TABLESAMPLE";
            default -> "this construct (" + rel.getRelTypeName().replace("Logical", "").toLowerCase(Locale.ROOT) + ")";
        };
    }

    private Relation scan(final TableScan s) {
        final CatalogTable table = s.getTable().unwrap(CatalogTable.class);
        final BlockTable t = table.table();
        final Schema schema = t.schema();
        final TableStats ts = stats.apply(t);
        final StoredColumn[] stored = new StoredColumn[schema.size()];
        for (int c = 0; c < schema.size(); c++) {
            names.use(schema.field(c).name());
            final int scale = schema.type(c).kind() == TypeKind.DECIMAL ? schema.type(c).scale() : 0;
            stored[c] = new StoredColumn(ts.column(c), scale);
        }
        final Plan plan = Plan.scan(t.name(), schema.names().toArray(new String[0]));
        return new Relation(plan, schema.names(), Set.of(), Math.max(1, t.rowCount()), stored);
    }

    private Relation filter(final Filter f) {
        final NotInSubquery notIn = NotInSubquery.of(f);
        if (notIn != null) {
            return notIn(f, notIn);
        }
        if (f.getInput() instanceof Join j && j.getJoinType() == JoinRelType.LEFT) {
            final Relation anti = antiJoin(f, j);
            if (anti != null) {
                return anti;
            }
        }
        final Relation in = translate(f.getInput());
        if (f.getCondition() instanceof RexInputRef ref && in.column(ref.getIndex()).startsWith(QUALIFY_FIELD)) {
            return applyFilter(in, Expr.eq(Expr.col(in.column(ref.getIndex())), Expr.lit(1)));
        }
        return applyFilter(in, new RexTranslator(in).translate(f.getCondition()));
    }

    /** Keeps the rows where {@code predicate} holds: inside the scan, with its pruning, when the input is one. */
    Relation applyFilter(final Relation in, final Expr predicate) {
        final double selectivity = Selectivity.of(predicate, in.statsByColumn());
        if (in.plan().node() instanceof PlanNode.Scan s) {
            final BlockTable t = tables.apply(s.table());
            final List<Predicate> pruning = BlockPruning.derive(predicate, t.schema());
            Plan plan = in.plan();
            if (!pruning.isEmpty()) {
                plan = plan.prune(pruning.toArray(new Predicate[0]));
            }
            plan = plan.filter(predicate);
            final PlanNode.Scan pruned = (PlanNode.Scan) plan.node();
            final long[] kept = keptBlocksAndRows(t, pruned.pruning());
            final double rows = Math.min(kept[1], in.rows() * selectivity);
            estimates.add("scan " + t.name() + ": " + t.rowCount() + " rows, " + kept[0] + " of " + t.blockCount()
                    + " blocks kept by " + (pruned.pruning().isEmpty() ? "no pruning" : pruned.pruning())
                    + ", ~" + Math.round(Math.max(1, rows)) + " rows after the filter (selectivity "
                    + String.format(java.util.Locale.ROOT, "%.3g", selectivity) + ")");
            return in.with(plan, rows);
        }
        return in.with(in.plan().filter(predicate), in.rows() * selectivity);
    }

    private static long[] keptBlocksAndRows(final BlockTable t, final List<Predicate> pruning) {
        RoaringBitmap keep = RoaringBitmap.bitmapOfRange(0, t.blockCount());
        for (final Predicate p : pruning) {
            keep = RoaringBitmap.and(keep, BlockPruner.prune(p, t));
        }
        long rows = 0;
        for (final int b : keep.toArray()) {
            rows += t.blockRowCount(b);
        }
        return new long[] {keep.getCardinality(), rows};
    }

    private Relation project(final Project p) {
        final Relation in = translate(p.getInput());
        final RexTranslator rex = new RexTranslator(in);
        final List<RexNode> exprs = p.getProjects();
        final List<String> columns = new ArrayList<>();
        final StoredColumn[] stored = new StoredColumn[exprs.size()];
        final Set<String> doubles = new HashSet<>();
        final Set<String> passed = new LinkedHashSet<>();
        final List<NamedExpr> computed = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            final RexNode e = exprs.get(i);
            if (e instanceof RexInputRef ref) {
                final String c = in.column(ref.getIndex());
                columns.add(c);
                stored[i] = in.stats()[ref.getIndex()];
                passed.add(c);
                if (in.doubles().contains(c)) {
                    doubles.add(c);
                }
            } else if (e instanceof RexLiteral lit && lit.isAlwaysTrue()) {
                // A match marker of a rewritten subquery: a left join leaves it NULL where nothing matched.
                final String name = names.fresh("marker");
                computed.add(new NamedExpr(name, Expr.lit(1)));
                columns.add(name);
            } else if (e instanceof RexLiteral lit && lit.getTypeName() == SqlTypeName.BOOLEAN) {
                columns.add(names.fresh("constant"));
            } else {
                final String field = p.getRowType().getFieldNames().get(i);
                Expr x = rex.translate(e);
                if (field.startsWith(QUALIFY_FIELD) && e.getType().getSqlTypeName() == SqlTypeName.BOOLEAN) {
                    // QUALIFY's condition, projected for the filter above to read: 1 where it holds.
                    x = Expr.caseWhen(x, Expr.lit(1), Expr.lit(0));
                }
                final String name = names.fresh(field);
                computed.add(new NamedExpr(name, x));
                columns.add(name);
                if (rex.isDouble(x)) {
                    doubles.add(name);
                }
            }
        }
        Plan plan = in.plan();
        if (!computed.isEmpty()) {
            final List<NamedExpr> items = new ArrayList<>();
            for (final String c : passed) {
                items.add(NamedExpr.column(c));
            }
            items.addAll(computed);
            plan = plan.project(items.toArray(new NamedExpr[0]));
        }
        return new Relation(plan, columns, doubles, in.rows(), stored);
    }

    private Relation aggregate(final org.apache.calcite.rel.core.Aggregate a) {
        final Relation in = translate(a.getInput());
        if (a.getGroupType() != org.apache.calcite.rel.core.Aggregate.Group.SIMPLE) {
            return new GroupingSets(this).plan(a, in);
        }
        if (ScalarSubquery.isOne(a)) {
            return new ScalarSubquery(this).plan(a, in);
        }
        final List<String> columns = new ArrayList<>();
        final List<StoredColumn> stored = new ArrayList<>();
        final Set<String> keyNames = new LinkedHashSet<>();
        double groups = 1;
        for (final int k : a.getGroupSet()) {
            final String c = in.column(k);
            columns.add(c);
            stored.add(in.stats()[k]);
            keyNames.add(c);
            groups *= in.distinctOf(k);
        }
        final List<NamedExpr> keys = new ArrayList<>();
        for (final String k : keyNames) {
            keys.add(NamedExpr.column(k));
        }
        final List<Aggregate> aggs = new ArrayList<>();
        final Set<String> doubles = new HashSet<>();
        final List<String> markers = new ArrayList<>();
        for (final AggregateCall call : a.getAggCallList()) {
            final String name = names.fresh(call.getName());
            columns.add(name);
            stored.add(null);
            final Aggregate agg = aggregateCall(call, in, name);
            if (agg != null) {
                aggs.add(agg);
                if (isDouble(call, in)) {
                    doubles.add(name);
                }
            } else {
                markers.add(name);
            }
        }
        final double rows = a.getGroupSet().isEmpty() ? 1 : Math.min(in.rows(), groups);
        Plan plan = in.plan().aggregate(keys, aggs.toArray(new Aggregate[0]));
        if (!markers.isEmpty()) {
            plan = plan.project(withMarkers(PlanColumns.of(plan.node()), markers));
        }
        return new Relation(plan, columns, doubles, rows, stored.toArray(new StoredColumn[0]));
    }

    /**
     * The columns of a plan followed by match markers: Calcite's constant TRUE of a subquery's rows,
     * which a left join leaves NULL where nothing matched and an OR of EXISTS reads
     * ({@code marker IS NOT NULL}); computed as 1, since Sluice columns hold no booleans.
     */
    private static NamedExpr[] withMarkers(final List<String> columns, final List<String> markers) {
        final List<NamedExpr> items = new ArrayList<>();
        for (final String c : columns) {
            items.add(NamedExpr.column(c));
        }
        for (final String m : markers) {
            items.add(new NamedExpr(m, Expr.lit(1)));
        }
        return items.toArray(new NamedExpr[0]);
    }

    /** Whether an aggregate's value is a double: an average, a variance, or a sum of doubles. */
    static boolean isDouble(final AggregateCall call, final Relation in) {
        return switch (call.getAggregation().getKind()) {
            case AVG, STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP -> true;
            case SUM, SUM0 -> !call.getArgList().isEmpty() && in.doubles().contains(in.column(call.getArgList().get(0)));
            default -> false;
        };
    }

    /** The engine aggregate of one of Calcite's aggregate calls over {@code in}, named {@code name}. */
    Aggregate aggregateOf(final AggregateCall call, final Relation in, final String name) {
        final Aggregate agg = aggregateCall(call, in, name);
        if (agg == null) {
            throw SqlException.unsupported("the aggregate " + call + " is not supported under GROUPING SETS");
        }
        return agg;
    }

    private static Aggregate aggregateCall(final AggregateCall call, final Relation in, final String name) {
        if (call.filterArg >= 0) {
            throw SqlException.unsupported("aggregate FILTER clauses (" + call + ") are not supported");
        }
        final SqlKind kind = call.getAggregation().getKind();
        if (kind == SqlKind.LITERAL_AGG) {
            return null;
        }
        if (call.getArgList().isEmpty()) {
            if (kind == SqlKind.COUNT) {
                return Plan.count(name);
            }
            throw SqlException.unsupported("the aggregate " + call + " is not supported");
        }
        if (call.getArgList().size() > 1) {
            throw SqlException.unsupported("aggregates of several arguments (" + call + ") are not supported");
        }
        final Expr arg = Expr.col(in.column(call.getArgList().get(0)));
        if (call.isDistinct() && kind != SqlKind.COUNT) {
            throw SqlException.unsupported(kind + "(DISTINCT ...) is not supported; COUNT(DISTINCT ...) is");
        }
        return switch (kind) {
            case COUNT -> call.isDistinct() ? Plan.countDistinct(arg, name) : Plan.count(arg, name);
            case SUM -> Plan.sum(arg, name);
            // SUM0 of integers adds in 64 bits, 0 without rows (AggregateBelowJoin adds partial counts with it).
            case SUM0 -> SqlTypeName.INT_TYPES.contains(call.getType().getSqlTypeName()) ? Plan.sum0(arg, name)
                    : Plan.sum(arg, name);
            case AVG -> Plan.avg(arg, name);
            case MIN -> Plan.min(arg, name);
            case SINGLE_VALUE -> throw SqlException.unsupported("a scalar subquery's value (SINGLE_VALUE) together"
                    + " with other aggregates in one aggregation is not supported: " + call);
            case MAX -> Plan.max(arg, name);
            case STDDEV_SAMP -> Plan.spread(AggregateFunction.STDDEV_SAMP, arg, name);
            case STDDEV_POP -> Plan.spread(AggregateFunction.STDDEV_POP, arg, name);
            case VAR_SAMP -> Plan.spread(AggregateFunction.VAR_SAMP, arg, name);
            case VAR_POP -> Plan.spread(AggregateFunction.VAR_POP, arg, name);
            default -> throw SqlException.unsupported("the aggregate function " + call.getAggregation().getName()
                    + " is not supported (SUM, AVG, MIN, MAX, COUNT, COUNT(DISTINCT), STDDEV and VARIANCE are)");
        };
    }

    private Relation sort(final Sort s) {
        if (s.offset != null && !(s.offset instanceof RexLiteral l && l.getValueAs(Long.class) == 0)) {
            throw SqlException.unsupported("OFFSET is not supported");
        }
        final Relation in = translate(s.getInput());
        final List<SortKey> keys = new ArrayList<>();
        for (final RelFieldCollation fc : s.getCollation().getFieldCollations()) {
            final String c = in.column(fc.getFieldIndex());
            keys.add(new SortKey(c, fc.direction == RelFieldCollation.Direction.DESCENDING,
                    fc.nullDirection == RelFieldCollation.NullDirection.FIRST));
        }
        Plan plan = in.plan();
        if (!keys.isEmpty()) {
            plan = plan.orderBy(keys.toArray(new SortKey[0]));
        }
        double rows = in.rows();
        if (s.fetch != null) {
            final long limit = ((RexLiteral) s.fetch).getValueAs(Long.class);
            plan = plan.limit(limit);
            rows = Math.min(rows, limit);
        }
        return in.with(plan, rows);
    }

    private Relation join(final Join j) {
        final JoinRelType type = j.getJoinType();
        if (type == JoinRelType.INNER && !isSemiJoin(j)) {
            return new JoinOrder(this).plan(j);
        }
        return switch (type) {
            case INNER, SEMI, ANTI -> semiOrAnti(j, type == JoinRelType.ANTI ? JoinType.ANTI : JoinType.SEMI,
                    j.getCondition(), type == JoinRelType.INNER);
            case LEFT -> pair(JoinType.LEFT, translate(j.getLeft()), translate(j.getRight()), j.getCondition());
            case RIGHT -> {
                final int left = j.getLeft().getRowType().getFieldCount();
                final int right = j.getRight().getRowType().getFieldCount();
                final Relation joined = pair(JoinType.LEFT, translate(j.getRight()), translate(j.getLeft()),
                        swapSides(j.getCondition(), left, right));
                yield reorder(joined, right, left);
            }
            case FULL -> new FullOuterJoin(this).plan(j);
            default -> throw SqlException.unsupported(type + " joins are not supported (INNER, LEFT, RIGHT, FULL,"
                    + " semi and anti joins are)");
        };
    }

    /** Whether an inner join's right side is duplicate-free on the right fields its condition equates with left ones. */
    static boolean isSemiJoin(final Join j) {
        final DistinctInput distinct = DistinctInput.of(j.getRight());
        if (distinct == null) {
            return false;
        }
        final int n = j.getLeft().getRowType().getFieldCount();
        final Set<Integer> equated = new HashSet<>();
        for (final RexNode c : RexUtil.flattenAnd(List.of(j.getCondition()))) {
            final int[] pair = equiPair(c, n);
            if (pair != null) {
                equated.add(distinct.fields()[pair[1] - n]);
            }
        }
        for (final int f : distinct.fields()) {
            if (f >= 0 && !equated.contains(f)) {
                return false;
            }
        }
        return !equated.isEmpty();
    }

    /** A join condition over (left, right) fields rewritten over (right, left). */
    static RexNode swapSides(final RexNode condition, final int left, final int right) {
        final int[] map = new int[left + right];
        for (int i = 0; i < left; i++) {
            map[i] = right + i;
        }
        for (int i = 0; i < right; i++) {
            map[left + i] = i;
        }
        return condition.accept(new org.apache.calcite.rex.RexShuttle() {
            @Override
            public RexNode visitInputRef(final RexInputRef ref) {
                return new RexInputRef(map[ref.getIndex()], ref.getType());
            }
        });
    }

    /** The fields of a (right, left) join relation put back in (left, right) order. */
    private static Relation reorder(final Relation joined, final int right, final int left) {
        final List<String> columns = new ArrayList<>(joined.columns().subList(right, right + left));
        columns.addAll(joined.columns().subList(0, right));
        final StoredColumn[] stored = new StoredColumn[left + right];
        System.arraycopy(joined.stats(), right, stored, 0, left);
        System.arraycopy(joined.stats(), 0, stored, left, right);
        return new Relation(joined.plan(), columns, joined.doubles(), joined.rows(), stored);
    }

    /**
     * {@code left [NOT] EXISTS right}: the right side's duplicate removal is dropped (a semi join
     * reads each key once anyway). An inner join with a duplicate-free right side on its keys is
     * the same as a semi join whose right fields equal the left keys.
     */
    private Relation semiOrAnti(final Join j, final JoinType type, final RexNode condition, final boolean fromInner) {
        final Relation left = translate(j.getLeft());
        final DistinctInput distinct = DistinctInput.of(j.getRight());
        final Relation right = distinct == null ? translate(j.getRight()) : distinct.translate(this);
        final Relation joined = pair(type, left, right, condition);
        if (!fromInner) {
            return joined;
        }
        final List<String> columns = new ArrayList<>(left.columns());
        final StoredColumn[] stored = Arrays.copyOf(left.stats(), j.getRowType().getFieldCount());
        final int n = left.columns().size();
        for (int i = 0; i < j.getRight().getRowType().getFieldCount(); i++) {
            final String equal = equalLeftColumn(condition, n + i, left);
            columns.add(equal != null ? equal : names.fresh("marker"));
        }
        return new Relation(joined.plan(), columns, joined.doubles(), joined.rows(), stored);
    }

    /** The left column an equi conjunct of the condition equates with a right field, or null. */
    private static String equalLeftColumn(final RexNode condition, final int field, final Relation left) {
        for (final RexNode c : RexUtil.flattenAnd(List.of(condition))) {
            if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call
                    && call.getOperands().get(0) instanceof RexInputRef a && call.getOperands().get(1) instanceof RexInputRef b) {
                if (b.getIndex() == field && a.getIndex() < left.columns().size()) {
                    return left.column(a.getIndex());
                }
                if (a.getIndex() == field && b.getIndex() < left.columns().size()) {
                    return left.column(b.getIndex());
                }
            }
        }
        return null;
    }

    /**
     * {@code LEFT JOIN ... WHERE right_field IS NULL} for a right field that is never null: the
     * rows without a match, an anti join (NOT EXISTS, NOT IN over non-null keys; NOT IN over keys that
     * may be NULL is {@link #notIn}).
     */
    private Relation antiJoin(final Filter f, final Join j) {
        final int n = j.getLeft().getRowType().getFieldCount();
        final List<RexNode> rest = new ArrayList<>();
        boolean anti = false;
        for (final RexNode c : RexUtil.flattenAnd(List.of(f.getCondition()))) {
            if (!anti && c.getKind() == SqlKind.IS_NULL && ((RexCall) c).getOperands().get(0) instanceof RexInputRef ref
                    && ref.getIndex() >= n
                    && !j.getRight().getRowType().getFieldList().get(ref.getIndex() - n).getType().isNullable()) {
                anti = true;
            } else {
                rest.add(c);
            }
        }
        if (!anti) {
            return null;
        }
        final Relation joined = semiOrAnti(j, JoinType.ANTI, j.getCondition(), false);
        final List<String> columns = new ArrayList<>(joined.columns());
        final StoredColumn[] stored = Arrays.copyOf(joined.stats(), j.getRowType().getFieldCount());
        for (int i = n; i < j.getRowType().getFieldCount(); i++) {
            columns.add(names.fresh("unmatched"));
        }
        final Relation all = new Relation(joined.plan(), columns, joined.doubles(), joined.rows(), stored);
        if (rest.isEmpty()) {
            return all;
        }
        final RexNode remaining = RexUtil.composeConjunction(j.getCluster().getRexBuilder(), rest);
        return applyFilter(all, new RexTranslator(all).translate(remaining));
    }

    /**
     * {@code x NOT IN (SELECT y ...)} as one null-aware anti join of the probe with the subquery's rows
     * on {@code x = y} ({@link NotInSubquery}), instead of Calcite's cross join with the subquery's counts
     * and left join with its distinct keys. The filter's output fields past the probe's (the counts and
     * the keys) are never read after it; they get fresh names.
     */
    private Relation notIn(final Filter f, final NotInSubquery notIn) {
        final Relation probe = translate(notIn.probe());
        final Relation build = translate(notIn.subquery());
        final int n = probe.columns().size();
        final RexNode equal = rexBuilder.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.EQUALS,
                rexBuilder.makeInputRef(notIn.probe().getRowType().getFieldList().get(notIn.probeKey()).getType(),
                        notIn.probeKey()),
                rexBuilder.makeInputRef(notIn.subquery().getRowType().getFieldList().get(notIn.buildKey()).getType(),
                        n + notIn.buildKey()));
        final Relation joined = pair(JoinType.NULL_AWARE_ANTI, probe, build, equal);
        final int fields = f.getRowType().getFieldCount();
        final List<String> columns = new ArrayList<>(joined.columns());
        for (int i = n; i < fields; i++) {
            columns.add(names.fresh("unmatched"));
        }
        final Relation all = new Relation(joined.plan(), columns, joined.doubles(), joined.rows(),
                Arrays.copyOf(joined.stats(), fields));
        if (notIn.rest().isEmpty()) {
            return all;
        }
        final RexNode remaining = RexUtil.composeConjunction(rexBuilder, notIn.rest());
        return applyFilter(all, new RexTranslator(all).translate(remaining));
    }

    /**
     * How many times its outer side's estimated rows a semi or anti join's subquery side must have
     * for the join to build the outer rows instead ({@link JoinType#RIGHT_SEMI}, {@link JoinType#RIGHT_ANTI}):
     * a hash table of the few outer rows, their keys filtering the subquery's scan, in place of one of
     * the subquery's many rows.
     */
    static final double RIGHT_JOIN_RATIO = 4;

    /**
     * Joins two translated sides on a condition over their fields (left's, then right's): equal
     * fields become hash keys, the rest the join's extra condition. Right is the build side; a
     * column name both sides have is renamed on it first. A semi or anti join whose right side is
     * far larger becomes a right semi or anti join with the sides swapped ({@link #RIGHT_JOIN_RATIO}).
     */
    Relation pair(final JoinType type, final Relation probe, final Relation build0, final RexNode condition) {
        final Relation build = renameClashes(build0, probe);
        final List<String> all = new ArrayList<>(probe.columns());
        all.addAll(build.columns());
        final Set<String> doubles = new HashSet<>(probe.doubles());
        doubles.addAll(build.doubles());
        final RexTranslator rex = new RexTranslator(all, doubles);
        final int n = probe.columns().size();
        final List<Expr> probeKeys = new ArrayList<>();
        final List<Expr> buildKeys = new ArrayList<>();
        final List<Expr> residual = new ArrayList<>();
        double keyDistinct = 1;
        for (final RexNode c : conjuncts(condition, rexBuilder)) {
            final int[] pairOf = equiPair(c, n);
            final RexNode[] sides = pairOf == null ? expressionPair(c, n) : null;
            if (pairOf != null) {
                probeKeys.add(Expr.col(probe.column(pairOf[0])));
                buildKeys.add(Expr.col(build.column(pairOf[1] - n)));
                keyDistinct = Math.max(keyDistinct, Math.max(probe.distinctOf(pairOf[0]), build.distinctOf(pairOf[1] - n)));
            } else if (sides != null) {
                // An equality of an expression of each side (Q2's d_week_seq1 = d_week_seq2 - 53): hash keys too.
                probeKeys.add(rex.translate(sides[0]));
                buildKeys.add(rex.translate(sides[1]));
            } else if (!c.isAlwaysTrue()) {
                residual.add(rex.translate(c));
            }
        }
        final Expr extra = residual.isEmpty() ? null
                : residual.size() == 1 ? residual.get(0) : Expr.and(residual.toArray(new Expr[0]));
        final boolean nestedLoop = probeKeys.isEmpty();
        final double matchFraction = extra == null ? 1 : Selectivity.UNKNOWN_COMPARISON;
        final double inner = probe.rows() * build.rows() / keyDistinct * matchFraction;
        final double rows = switch (type) {
            case INNER -> inner;
            case LEFT -> Math.max(inner, probe.rows());
            case SEMI -> Math.min(probe.rows(), inner);
            case ANTI, NULL_AWARE_ANTI -> Math.max(probe.rows() * 0.1, probe.rows() - Math.min(probe.rows(), inner));
            case RIGHT_SEMI, RIGHT_ANTI -> throw new IllegalArgumentException(type + " is planned from a semi or anti join");
        };
        estimates.add(type.name().toLowerCase(java.util.Locale.ROOT) + (nestedLoop ? " nested loop join on " + extra
                : " join " + probeKeys + " = " + buildKeys) + ": probe ~" + Math.round(probe.rows()) + " rows, build ~"
                + Math.round(build.rows()) + " rows, ~" + Math.round(Math.max(1, rows)) + " rows out");
        // Without an equality there is no key to hash: every probe row meets every build row.
        final boolean swapped = !nestedLoop && (type == JoinType.SEMI || type == JoinType.ANTI)
                && build.rows() >= RIGHT_JOIN_RATIO * probe.rows();
        if (swapped) {
            estimates.add("the " + (type == JoinType.SEMI ? "semi" : "anti") + " join's subquery side is ~"
                    + Math.round(build.rows() / Math.max(1, probe.rows())) + "x its outer side: the outer rows are"
                    + " built and marked (right " + (type == JoinType.SEMI ? "semi" : "anti") + " join)");
        }
        final Plan plan = Plan.of(nestedLoop
                ? new PlanNode.NestedLoopJoin(probe.plan().node(), build.plan().node(), type, extra)
                : swapped ? new PlanNode.Join(build.plan().node(), probe.plan().node(),
                        type == JoinType.SEMI ? JoinType.RIGHT_SEMI : JoinType.RIGHT_ANTI, buildKeys, probeKeys, extra)
                : new PlanNode.Join(probe.plan().node(), build.plan().node(), type, probeKeys, buildKeys, extra));
        final boolean both = type == JoinType.INNER || type == JoinType.LEFT;
        final List<String> columns = both ? all : probe.columns();
        final StoredColumn[] stored = Arrays.copyOf(probe.stats(), columns.size());
        if (both) {
            System.arraycopy(build.stats(), 0, stored, n, build.columns().size());
        }
        return new Relation(plan, columns, both ? doubles : probe.doubles(), Math.max(1, rows), stored);
    }

    /**
     * The terms of a condition's conjunction, after pulling the terms every branch of a
     * disjunction shares out of it ({@code (a AND b) OR (a AND c)} gives {@code a} and
     * {@code b OR c}), so a join key written in each branch (Q19) is a key.
     */
    static List<RexNode> conjuncts(final RexNode condition, final org.apache.calcite.rex.RexBuilder rex) {
        return RexUtil.flattenAnd(List.of(RexUtil.pullFactors(rex, condition)));
    }

    /**
     * {left expression, right expression} when the conjunct equates an expression of the left fields
     * with one of the right fields (n left fields), each reading at least one field, else null.
     */
    static RexNode[] expressionPair(final RexNode c, final int n) {
        if (c.getKind() != SqlKind.EQUALS || !(c instanceof RexCall call)) {
            return null;
        }
        final RexNode a = call.getOperands().get(0);
        final RexNode b = call.getOperands().get(1);
        final ImmutableBitSet fa = fieldsOf(a);
        final ImmutableBitSet fb = fieldsOf(b);
        if (fa.isEmpty() || fb.isEmpty()) {
            return null;
        }
        if (fa.nextSetBit(n) < 0 && fb.nextSetBit(0) >= n) {
            return new RexNode[] {a, b};
        }
        if (fb.nextSetBit(n) < 0 && fa.nextSetBit(0) >= n) {
            return new RexNode[] {b, a};
        }
        return null;
    }

    /** {left field, right field} when the conjunct equates a left field with a right one (n left fields), else null. */
    static int[] equiPair(final RexNode c, final int n) {
        if (!(c.getKind() == SqlKind.EQUALS || c.getKind() == SqlKind.IS_NOT_DISTINCT_FROM) || !(c instanceof RexCall call)) {
            return null;
        }
        if (call.getOperands().get(0) instanceof RexInputRef a && call.getOperands().get(1) instanceof RexInputRef b) {
            if (c.getKind() == SqlKind.IS_NOT_DISTINCT_FROM && (a.getType().isNullable() || b.getType().isNullable())) {
                // NULL matches NULL here, and a hash key matches no NULL: a condition of the join instead.
                return null;
            }
            if (a.getIndex() < n && b.getIndex() >= n) {
                return new int[] {a.getIndex(), b.getIndex()};
            }
            if (b.getIndex() < n && a.getIndex() >= n) {
                return new int[] {b.getIndex(), a.getIndex()};
            }
        }
        return null;
    }

    /** {@code side} with each column that {@code other}'s plan also outputs renamed by a projection. */
    Relation renameClashes(final Relation side, final Relation other) {
        final Set<String> taken = new HashSet<>(PlanColumns.of(other.plan().node()));
        final List<String> outputs = PlanColumns.of(side.plan().node());
        boolean clash = false;
        for (final String c : outputs) {
            clash |= taken.contains(c);
        }
        if (!clash) {
            return side;
        }
        final List<NamedExpr> items = new ArrayList<>();
        final java.util.Map<String, String> renamed = new java.util.HashMap<>();
        for (final String c : outputs) {
            if (taken.contains(c)) {
                final String fresh = names.fresh(c);
                renamed.put(c, fresh);
                items.add(new NamedExpr(fresh, Expr.col(c)));
            } else {
                items.add(NamedExpr.column(c));
            }
        }
        final List<String> columns = new ArrayList<>();
        for (final String c : side.columns()) {
            columns.add(renamed.getOrDefault(c, c));
        }
        final Set<String> doubles = new HashSet<>();
        for (final String d : side.doubles()) {
            doubles.add(renamed.getOrDefault(d, d));
        }
        return new Relation(side.plan().project(items.toArray(new NamedExpr[0])), columns, doubles, side.rows(),
                side.stats());
    }

    /** Bits of the fields a row expression reads. */
    static ImmutableBitSet fieldsOf(final RexNode rex) {
        return org.apache.calcite.plan.RelOptUtil.InputFinder.bits(rex);
    }
}
