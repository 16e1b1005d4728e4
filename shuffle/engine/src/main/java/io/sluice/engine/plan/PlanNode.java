package io.sluice.engine.plan;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.exec.WindowFunction;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.zonemap.Predicate;
import java.util.List;

/** A node of a physical plan tree; {@link Plan} builds them, {@link PipelineCompiler} turns them into pipelines. */
public sealed interface PlanNode {
    /** Reads columns of a stored table, skipping blocks by zonemap and rows by a filter (null: none). */
    record Scan(String table, List<String> columns, List<Predicate> pruning, Expr filter) implements PlanNode {
        public Scan {
            columns = List.copyOf(columns);
            pruning = List.copyOf(pruning);
        }
    }

    /** Keeps rows where the predicate holds. */
    record Filter(PlanNode input, Expr predicate) implements PlanNode {
    }

    /** Computes named expressions. */
    record Project(PlanNode input, List<NamedExpr> items) implements PlanNode {
        public Project {
            items = List.copyOf(items);
        }
    }

    /** Groups by keys and computes aggregates (partial per worker, then final). */
    record Aggregation(PlanNode input, List<NamedExpr> keys, List<Aggregate> aggregates) implements PlanNode {
        public Aggregation {
            keys = List.copyOf(keys);
            aggregates = List.copyOf(aggregates);
        }
    }

    /** A hash join: {@code build} is hashed on its keys, {@code probe} streams through it. */
    record Join(PlanNode probe, PlanNode build, JoinType type, List<Expr> probeKeys, List<Expr> buildKeys,
                Expr condition) implements PlanNode {
        public Join {
            probeKeys = List.copyOf(probeKeys);
            buildKeys = List.copyOf(buildKeys);
        }
    }

    /**
     * ORDER BY, top-N when limit is not {@link io.sluice.engine.exec.Sort#NO_LIMIT}.
     *
     * @param distribution how it runs over the cluster, as {@link DetermineSortDistribution} decided;
     *                     null until it has
     */
    record OrderBy(PlanNode input, List<SortKey> keys, long limit, SortDistribution distribution)
            implements PlanNode {
        public OrderBy {
            keys = List.copyOf(keys);
        }

        /** An ORDER BY not yet decided. */
        public OrderBy(final PlanNode input, final List<SortKey> keys, final long limit) {
            this(input, keys, limit, null);
        }

        /** The same ORDER BY with a decided distribution. */
        public OrderBy withDistribution(final SortDistribution d) {
            return new OrderBy(input, keys, limit, d);
        }
    }

    /** LIMIT without ORDER BY. */
    record Limit(PlanNode input, long limit) implements PlanNode {
    }

    /**
     * UNION ALL: every row of every input, columns matched by position (the same count and types),
     * named as the first input's; duplicates are kept and no order or partitioning is promised.
     */
    record UnionAll(List<PlanNode> inputs) implements PlanNode {
        public UnionAll {
            if (inputs == null || inputs.size() < 2) {
                throw new IllegalArgumentException("UNION ALL needs two or more inputs, got "
                        + (inputs == null ? "none" : inputs.size()) + ": union a plan with at least one other");
            }
            inputs = List.copyOf(inputs);
        }
    }

    /**
     * Window functions: the input's rows with one column per function added, each computed over the
     * row's partition (rows with equal {@code partitionBy} columns, NULLs alike; all rows without
     * any) in {@code orderBy} order. A partition is computed whole in one place.
     */
    record Window(PlanNode input, List<String> partitionBy, List<SortKey> orderBy, List<WindowFunction> functions)
            implements PlanNode {
        public Window {
            partitionBy = List.copyOf(partitionBy);
            orderBy = List.copyOf(orderBy);
            functions = List.copyOf(functions);
            if (functions.isEmpty()) {
                throw new IllegalArgumentException("a window node needs at least one function: compute ROW_NUMBER,"
                        + " RANK, DENSE_RANK, SUM, COUNT, AVG, MIN or MAX over the partition");
            }
            for (final WindowFunction f : functions) {
                if (!f.type().ranking() && f.frame().hasRangeOffset() && orderBy.size() != 1) {
                    throw new IllegalArgumentException(f + ": a RANGE frame with an offset needs exactly one ORDER BY"
                            + " key, got " + orderBy.size() + "; use ROWS, or order by one column");
                }
            }
        }
    }

    /**
     * A nested-loop join, for conditions without equality keys: every probe row meets every
     * {@code build} row and the pairs where {@code condition} holds match (null: all pairs, a cross
     * join). INNER, LEFT, SEMI or ANTI.
     */
    record NestedLoopJoin(PlanNode probe, PlanNode build, JoinType type, Expr condition) implements PlanNode {
        public NestedLoopJoin {
            if (type == JoinType.NULL_AWARE_ANTI) {
                throw new IllegalArgumentException("a nested-loop join cannot be a null-aware anti join (NOT IN):"
                        + " plan NOT IN as a hash join on its key");
            }
            if (type.buildColumnsOnly()) {
                throw new IllegalArgumentException("a nested-loop join cannot be a " + type + " join: swap its sides"
                        + " and plan it as a SEMI or ANTI join");
            }
        }
    }

    /**
     * The rows of a scalar subquery, which SQL allows at most one of: more is an error naming
     * {@code where}. Without keys, no row gives one row of NULLs; with keys the limit is one row per
     * key (a decorrelated subquery, one value per outer key), rows with a NULL key unchecked (they
     * match no outer row).
     */
    record AssertOneRow(PlanNode input, List<String> keys, String where) implements PlanNode {
        public AssertOneRow {
            keys = List.copyOf(keys);
        }
    }
}
