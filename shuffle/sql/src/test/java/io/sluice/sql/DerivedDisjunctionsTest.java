package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.expr.ExprColumns;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.QueryRunner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * A disjunction whose every branch tests a column alone lets the OR of those tests filter that column's
 * scan, below the joins; a column some branch does not test gets nothing; the rows are those of the
 * whole condition, counted here from how the test table is written (k, v = k % 100, s = 's' + k % 7).
 */
class DerivedDisjunctionsTest extends OverTestStore {
    private static long count(final LongPredicate keep) {
        long n = 0;
        for (long k = 0; k < TestStore.ROWS; k++) {
            n += keep.test(k) ? 1 : 0;
        }
        return n;
    }

    private static QueryResult run(final PlannedQuery planned) {
        try (QueryRunner runner = new QueryRunner(store.catalog(), 2)) {
            return runner.run(planned.plan());
        }
    }

    /** The columns each scan's filter reads, one set per scan. */
    private static List<Set<String>> scanFilters(final PlanNode node) {
        final List<Set<String>> out = new ArrayList<>();
        collect(node, out);
        return out;
    }

    private static void collect(final PlanNode node, final List<Set<String>> out) {
        if (node instanceof PlanNode.Scan s) {
            final Set<String> columns = new HashSet<>();
            ExprColumns.collect(s.filter(), columns);
            out.add(columns);
        } else if (node instanceof PlanNode.Join j) {
            collect(j.probe(), out);
            collect(j.build(), out);
        } else if (node instanceof PlanNode.Project p) {
            collect(p.input(), out);
        } else if (node instanceof PlanNode.Filter f) {
            collect(f.input(), out);
        } else if (node instanceof PlanNode.Aggregation a) {
            collect(a.input(), out);
        }
    }

    @Test
    void eachSideOfAJoinIsFilteredByTheTestsItsColumnsGetInEveryBranch() {
        final PlannedQuery planned = planner.plan("select count(*) as n from t a, t b where a.k = b.k"
                + " and ((a.s = 's1' and b.v < 0.10) or (a.s = 's2' and b.v > 0.90))");
        assertThat(scanFilters(planned.plan().node())).containsExactlyInAnyOrder(Set.of("s"), Set.of("v"));
        assertThat(run(planned).value(0, 0)).isEqualTo(count(k -> k % 7 == 1 && k % 100 < 10
                || k % 7 == 2 && k % 100 > 90));
    }

    @Test
    void aColumnOneBranchDoesNotTestGetsNothing() {
        final PlannedQuery planned = planner.plan("select count(*) as n from t a, t b where a.k = b.k"
                + " and ((a.s = 's1' and b.v < 0.10) or b.v > 0.90)");
        assertThat(scanFilters(planned.plan().node())).containsExactlyInAnyOrder(Set.of(), Set.of("v"));
        assertThat(run(planned).value(0, 0)).isEqualTo(count(k -> k % 7 == 1 && k % 100 < 10 || k % 100 > 90));
    }

    @Test
    void testsOfOneColumnInABranchAreTakenTogether() {
        final PlannedQuery planned = planner.plan("select count(*) as n from t a, t b where a.k = b.k"
                + " and ((a.k between 100 and 200 and a.k <> 150 and b.s = 's3') or (a.k > 19000 and b.s = 's4'))");
        // b's scan tests s by the derived disjunction and k by a's range carried over a.k = b.k.
        assertThat(scanFilters(planned.plan().node())).containsExactlyInAnyOrder(Set.of("k"), Set.of("s", "k"));
        assertThat(run(planned).value(0, 0)).isEqualTo(count(k -> k >= 100 && k <= 200 && k != 150 && k % 7 == 3
                || k > 19000 && k % 7 == 4));
    }
}
