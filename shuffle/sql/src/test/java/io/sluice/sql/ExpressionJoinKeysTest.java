package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.QueryRunner;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An equality between an expression of each side of a join ({@code a.k = b.k - 1}, as TPC-DS Q2 and
 * Q59 join weeks a year apart) is a hash join on the two expressions, not a nested loop over every
 * pair of rows. The test table has {@code k = 0, 1, ...}, once each.
 */
class ExpressionJoinKeysTest extends OverTestStore {
    @Test
    void anEqualityOfExpressionsOfBothSidesIsAHashJoinOnThem() {
        final PlannedQuery planned = planner.plan("select count(*) as n from t a, t b where a.k = b.k - 1");
        final String plan = planned.plan().toString();
        assertThat(plan).doesNotContain("NestedLoopJoin").containsPattern("Keys=\\[\\(k\\w* - 1\\)\\]");
        try (QueryRunner runner = new QueryRunner(store.catalog(), 2)) {
            final QueryResult result = runner.run(planned.plan());
            assertThat(result.rows()).isEqualTo(List.of(List.of((long) TestStore.ROWS - 1)));
        }
    }
}
