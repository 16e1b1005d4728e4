package io.sluice.engine.plan;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.AggregateFunction;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.Sort;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.exec.WindowFunction;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.zonemap.Predicate;
import java.util.ArrayList;
import java.util.List;

/**
 * A physical query plan written in Java with a fluent builder, the way queries are written (there
 * is no SQL parser):
 *
 * <pre>{@code
 * Plan.scan("lineitem", "l_extendedprice", "l_discount", "l_shipdate")
 *     .prune(Predicate.between("l_shipdate", lo, hi))
 *     .filter(Expr.between(Expr.col("l_shipdate"), Expr.date("1994-01-01"), Expr.date("1994-12-31")))
 *     .aggregate(Plan.noKeys(), Plan.sum(Expr.mul(Expr.col("l_extendedprice"), Expr.col("l_discount")), "revenue"));
 * }</pre>
 *
 * Plans are immutable values; {@link QueryRunner} runs one.
 */
public final class Plan {
    private final PlanNode node;

    private Plan(final PlanNode node) {
        this.node = node;
    }

    /** The plan whose root is a given node, e.g. a node tree decoded by {@link PlanCodec}. */
    public static Plan of(final PlanNode node) {
        if (node == null) {
            throw new IllegalArgumentException("a plan needs a root node: start it with Plan.scan");
        }
        return new Plan(node);
    }

    /** The plan's root node. */
    public PlanNode node() {
        return node;
    }

    /** Reads the named columns of a stored table. */
    public static Plan scan(final String table, final String... columns) {
        if (columns.length == 0) {
            throw new IllegalArgumentException("scan of '" + table + "' names no columns: list the columns the query reads");
        }
        return new Plan(new PlanNode.Scan(table, List.of(columns), List.of(), null));
    }

    /** Skips the blocks of this scan whose zonemaps show no row can satisfy the predicates. */
    public Plan prune(final Predicate... predicates) {
        if (!(node instanceof PlanNode.Scan s)) {
            throw new IllegalArgumentException("prune applies to a scan, not to " + node.getClass().getSimpleName());
        }
        final List<Predicate> all = new ArrayList<>(s.pruning());
        all.addAll(List.of(predicates));
        return new Plan(new PlanNode.Scan(s.table(), s.columns(), all, s.filter()));
    }

    /** Keeps rows where the predicate holds (inside the scan when applied to one). */
    public Plan filter(final Expr predicate) {
        if (node instanceof PlanNode.Scan s) {
            final Expr combined = s.filter() == null ? predicate : Expr.and(s.filter(), predicate);
            return new Plan(new PlanNode.Scan(s.table(), s.columns(), s.pruning(), combined));
        }
        return new Plan(new PlanNode.Filter(node, predicate));
    }

    /** Computes named expressions. */
    public Plan project(final NamedExpr... items) {
        return new Plan(new PlanNode.Project(node, List.of(items)));
    }

    /** Keeps the named columns in the given order. */
    public Plan select(final String... columns) {
        final NamedExpr[] items = new NamedExpr[columns.length];
        for (int i = 0; i < columns.length; i++) {
            items[i] = NamedExpr.column(columns[i]);
        }
        return project(items);
    }

    /** Groups by the keys and computes the aggregates; the output is the keys, then the aggregates. */
    public Plan aggregate(final List<NamedExpr> keys, final Aggregate... aggregates) {
        return new Plan(new PlanNode.Aggregation(node, keys, List.of(aggregates)));
    }

    /** Joins this plan (probe side) with {@code build} (hashed) on equal columns, named in pairs. */
    public Plan join(final JoinType type, final Plan build, final List<String> probeKeys, final List<String> buildKeys) {
        return join(type, build, probeKeys, buildKeys, null);
    }

    /** As {@link #join(JoinType, Plan, List, List)} with an extra condition over both sides' columns. */
    public Plan join(final JoinType type, final Plan build, final List<String> probeKeys, final List<String> buildKeys,
                     final Expr condition) {
        return new Plan(new PlanNode.Join(node, build.node, type, columns(probeKeys), columns(buildKeys), condition));
    }

    /**
     * Joins this plan (probe side) with {@code build} where {@code condition} holds, without equality
     * keys: each probe row meets every build row (the build side is copied to every CN). A null
     * condition is a cross join.
     */
    public Plan nestedLoopJoin(final JoinType type, final Plan build, final Expr condition) {
        return new Plan(new PlanNode.NestedLoopJoin(node, build.node, type, condition));
    }

    /**
     * UNION ALL of this plan's rows and the others': columns matched by position, which must have
     * the same types; the result is named as this plan's columns.
     */
    public Plan unionAll(final Plan... others) {
        final List<PlanNode> inputs = new ArrayList<>();
        inputs.add(node);
        for (final Plan o : others) {
            inputs.add(o.node);
        }
        return new Plan(new PlanNode.UnionAll(inputs));
    }

    /**
     * Window functions over partitions of this plan's rows: the output is this plan's columns, then
     * one column per function.
     *
     * @param partitionBy the partition key columns; empty: all rows are one partition
     * @param orderBy     the order within each partition; empty: a partition's rows are all peers
     */
    public Plan window(final List<String> partitionBy, final List<SortKey> orderBy, final WindowFunction... functions) {
        return new Plan(new PlanNode.Window(node, partitionBy, orderBy, List.of(functions)));
    }

    /**
     * This plan's rows, which must be at most one (per key of {@code keys}): a scalar subquery. More
     * fail the query with an error naming {@code where}; without keys, no row gives one row of NULLs.
     */
    public Plan assertOneRow(final List<String> keys, final String where) {
        return new Plan(new PlanNode.AssertOneRow(node, keys, where));
    }

    /** ORDER BY. */
    public Plan orderBy(final SortKey... keys) {
        return new Plan(new PlanNode.OrderBy(node, List.of(keys), Sort.NO_LIMIT));
    }

    /** LIMIT; after {@link #orderBy} it becomes a top-N. */
    public Plan limit(final long limit) {
        if (node instanceof PlanNode.OrderBy o && o.limit() == Sort.NO_LIMIT) {
            return new Plan(new PlanNode.OrderBy(o.input(), o.keys(), limit));
        }
        return new Plan(new PlanNode.Limit(node, limit));
    }

    private static List<Expr> columns(final List<String> names) {
        final List<Expr> exprs = new ArrayList<>();
        for (final String n : names) {
            exprs.add(Expr.col(n));
        }
        return exprs;
    }

    /** Group-by keys that are columns passed on under their names. */
    public static List<NamedExpr> groupBy(final String... columns) {
        final List<NamedExpr> keys = new ArrayList<>();
        for (final String c : columns) {
            keys.add(NamedExpr.column(c));
        }
        return keys;
    }

    /** No group-by keys: one result row. */
    public static List<NamedExpr> noKeys() {
        return List.of();
    }

    public static Aggregate sum(final Expr e, final String name) {
        return new Aggregate(AggregateFunction.SUM, e, name);
    }

    /** SUM0(e): the sum of a 64-bit integer in 64 bits, 0 where no row has a value (adds partial counts). */
    public static Aggregate sum0(final Expr e, final String name) {
        return new Aggregate(AggregateFunction.SUM0, e, name);
    }

    public static Aggregate avg(final Expr e, final String name) {
        return new Aggregate(AggregateFunction.AVG, e, name);
    }

    public static Aggregate min(final Expr e, final String name) {
        return new Aggregate(AggregateFunction.MIN, e, name);
    }

    public static Aggregate max(final Expr e, final String name) {
        return new Aggregate(AggregateFunction.MAX, e, name);
    }

    /** COUNT(*). */
    public static Aggregate count(final String name) {
        return new Aggregate(AggregateFunction.COUNT_STAR, null, name);
    }

    /** COUNT(e): rows where e is not null. */
    public static Aggregate count(final Expr e, final String name) {
        return new Aggregate(AggregateFunction.COUNT, e, name);
    }

    /** VAR_SAMP, VAR_POP, STDDEV_SAMP or STDDEV_POP of {@code e}, a double. */
    public static Aggregate spread(final AggregateFunction function, final Expr e, final String name) {
        return new Aggregate(function, e, name);
    }

    public static Aggregate countDistinct(final Expr e, final String name) {
        return new Aggregate(AggregateFunction.COUNT_DISTINCT, e, name);
    }

    @Override
    public String toString() {
        return node.toString();
    }
}
