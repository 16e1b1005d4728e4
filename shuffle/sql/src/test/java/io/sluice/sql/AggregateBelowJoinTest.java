package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.QueryRunner;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An aggregation over a left join that reads only the other side is planned below the join, and
 * gives the rows of the aggregation over the join; shapes it does not fit are planned as written.
 * The expected rows are counted from how the test table is written ({@code k = 0, 1, ...},
 * {@code v = (k mod 100) / 100}, {@code s = 's' || (k mod 7)}).
 */
class AggregateBelowJoinTest extends OverTestStore {
    private static final int MATCHED = 5000;

    private static QueryResult run(final PlannedQuery planned) {
        try (QueryRunner runner = new QueryRunner(store.catalog(), 2)) {
            return runner.run(planned.plan());
        }
    }

    /** Whether some join of the plan has an aggregation as an input (through projections). */
    private static boolean aggregatesBelowAJoin(final PlanNode node) {
        if (node instanceof PlanNode.Join j) {
            return isAggregation(j.probe()) || isAggregation(j.build())
                    || aggregatesBelowAJoin(j.probe()) || aggregatesBelowAJoin(j.build());
        }
        if (node instanceof PlanNode.Project p) {
            return aggregatesBelowAJoin(p.input());
        }
        if (node instanceof PlanNode.Filter f) {
            return aggregatesBelowAJoin(f.input());
        }
        return node instanceof PlanNode.Aggregation a && aggregatesBelowAJoin(a.input());
    }

    private static boolean isAggregation(final PlanNode node) {
        return node instanceof PlanNode.Aggregation
                || node instanceof PlanNode.Project p && isAggregation(p.input());
    }

    /** Per group {@code s = 's' + g}: matched rows, their sum of v, smallest and largest k. */
    private static List<List<Object>> expectedPerGroup() {
        final List<List<Object>> rows = new ArrayList<>();
        for (int g = 0; g < 7; g++) {
            long count = 0;
            long cents = 0;
            long largest = -1;
            for (int k = g; k < MATCHED; k += 7) {
                count++;
                cents += k % 100;
                largest = k;
            }
            rows.add(List.of("s" + g, count, BigDecimal.valueOf(cents, 2), (long) g, largest));
        }
        return rows;
    }

    @Test
    void countsSumsAndExtremesOfTheOtherSideAreTakenBelowTheJoin() {
        final PlannedQuery planned = planner.plan("select a.s, count(b.k) as c, sum(b.v) as total, min(b.k) as lo,"
                + " max(b.k) as hi from t a left join t b on a.k = b.k and b.k < " + MATCHED + " group by a.s");
        assertThat(aggregatesBelowAJoin(planned.plan().node())).isTrue();
        assertThat(run(planned).rows()).containsExactlyInAnyOrderElementsOf(expectedPerGroup());
    }

    @Test
    void aRowWithoutAMatchCountsZeroAndHasNoSum() {
        final PlannedQuery planned = planner.plan("select a.k, count(b.k) as c, sum(b.v) as total"
                + " from t a left join t b on a.k = b.k and b.k < 3 where a.k < 5 group by a.k");
        assertThat(aggregatesBelowAJoin(planned.plan().node())).isTrue();
        final List<List<Object>> expected = new ArrayList<>();
        for (long k = 0; k < 5; k++) {
            final List<Object> row = new ArrayList<>(List.of(k, k < 3 ? 1L : 0L));
            row.add(k < 3 ? BigDecimal.valueOf(k, 2) : null);
            expected.add(row);
        }
        assertThat(run(planned).rows()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void countStarCountsTheUnmatchedRowsAndStaysAboveTheJoin() {
        final PlannedQuery planned = planner.plan("select a.s, count(*) as c from t a left join t b"
                + " on a.k = b.k and b.k < " + MATCHED + " group by a.s");
        assertThat(aggregatesBelowAJoin(planned.plan().node())).isFalse();
        final List<List<Object>> expected = new ArrayList<>();
        for (int g = 0; g < 7; g++) {
            long count = 0;
            for (int k = g; k < TestStore.ROWS; k += 7) {
                count++;
            }
            expected.add(List.of("s" + g, count));
        }
        assertThat(run(planned).rows()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void anAggregateOfThePreservedSideStaysAboveTheJoin() {
        final PlannedQuery planned = planner.plan("select a.s, count(b.k) as c, max(a.k) as hi from t a left join t b"
                + " on a.k = b.k group by a.s");
        assertThat(aggregatesBelowAJoin(planned.plan().node())).isFalse();
        assertThat(run(planned).rowCount()).isEqualTo(7);
    }
}
