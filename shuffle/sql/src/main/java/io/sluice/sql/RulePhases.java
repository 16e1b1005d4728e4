package io.sluice.sql;

import io.sluice.format.spi.BlockTable;
import io.sluice.zonemap.TableStats;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.tools.RelBuilder;

/**
 * The rewrites Calcite applies before Sluice plans a statement, in phases of heuristic (Hep)
 * rules: subqueries become correlated joins, an existence test of a correlated filter a semi or
 * anti join ({@link CorrelatedExists}), the decorrelator turns the other correlations into plain joins and
 * aggregates, disjunctions add the single-column predicates they imply ({@link DerivedDisjunctions}),
 * then filters move down to the scans and into join conditions, an aggregation over a left
 * join's other side moves below the join ({@link AggregateBelowJoin}), an aggregation over a dimension's inner
 * join groups the other inputs by the dimension's keys first ({@link AggregateBelowDimensionJoin}, from the
 * tables' statistics), a join's equality carries a filter of one side to the other, and adjacent
 * projections and filters merge. No cost-based planning: join order and distribution are
 * Sluice's.
 */
final class RulePhases {
    /** Rule applications per phase at most: a safety net against rules undoing each other. */
    private static final int MATCH_LIMIT = 10_000;

    private static final List<RelOptRule> SUBQUERIES = List.of(
            CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
            CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
            CoreRules.JOIN_SUB_QUERY_TO_CORRELATE);

    private static final List<RelOptRule> PUSH_DOWN = List.of(
            CoreRules.FILTER_INTO_JOIN,
            CoreRules.JOIN_CONDITION_PUSH,
            CoreRules.FILTER_PROJECT_TRANSPOSE,
            CoreRules.FILTER_AGGREGATE_TRANSPOSE,
            CoreRules.FILTER_MERGE,
            CoreRules.PROJECT_MERGE,
            CoreRules.PROJECT_REMOVE,
            CoreRules.AGGREGATE_PROJECT_MERGE,
            CoreRules.AGGREGATE_REMOVE);

    private static final List<RelOptRule> SEMI_JOINS = List.of(
            CoreRules.PROJECT_TO_SEMI_JOIN,
            CoreRules.JOIN_TO_SEMI_JOIN,
            CoreRules.PROJECT_MERGE,
            CoreRules.PROJECT_REMOVE);

    /**
     * A join's equality carries a filter of one side to the other (TPC-DS Q78: the store sales' year reaches the
     * web and catalog channels it is left-joined to on the year, a null-supplying side never matching a row the
     * preserved side lost). After {@link AggregateBelowJoin} and {@link AggregateBelowDimensionJoin}, whose
     * patterns an extra filter would hide.
     */
    private static final List<RelOptRule> TRANSITIVE = List.of(CoreRules.JOIN_PUSH_TRANSITIVE_PREDICATES);

    /** Window functions (RexOver in a projection) become a window operator between two projections. */
    private static final List<RelOptRule> WINDOWS = List.of(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW);

    private RulePhases() {
    }

    /** The statement's tree after every phase. */
    static RelNode apply(final RelNode converted, final RelBuilder builder,
                         final Function<BlockTable, TableStats> stats) {
        RelNode rel = run(converted, SUBQUERIES);
        rel = CorrelatedExists.apply(rel);
        rel = RelDecorrelator.decorrelateQuery(rel, builder);
        rel = DerivedDisjunctions.apply(rel);
        rel = run(rel, PUSH_DOWN);
        rel = run(rel, SEMI_JOINS);
        rel = AggregateBelowJoin.apply(rel, builder);
        rel = AggregateBelowDimensionJoin.apply(rel, builder, stats);
        rel = run(rel, TRANSITIVE);
        rel = run(rel, PUSH_DOWN);
        return run(rel, WINDOWS);
    }

    private static RelNode run(final RelNode rel, final List<RelOptRule> rules) {
        final HepProgramBuilder program = new HepProgramBuilder().addMatchOrder(HepMatchOrder.BOTTOM_UP)
                .addMatchLimit(MATCH_LIMIT);
        program.addRuleCollection(rules);
        final HepPlanner planner = new HepPlanner(program.build());
        planner.setRoot(rel);
        return planner.findBestExp();
    }
}
