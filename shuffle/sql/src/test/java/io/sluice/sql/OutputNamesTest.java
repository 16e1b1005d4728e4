package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result columns are named as DuckDB names them: by their alias, also where Calcite's rewrites lose it. */
class OutputNamesTest {
    @TempDir
    Path dir;

    @Test
    void anAliasNamesAGroupKeyFromOneSideOfAJoin() {
        try (NullsStore store = new NullsStore(dir)) {
            final SqlPlanner planner = new SqlPlanner(store.catalog(), List.of("t", "u", "v"));
            assertThat(planner.plan("select u.k as uk, count(t.id) as matched from t right join u on t.k = u.k"
                    + " group by u.k").columns()).containsExactly("uk", "matched");
            assertThat(planner.plan("select k as key, count(*) as n from t group by k").columns())
                    .containsExactly("key", "n");
        }
    }

    @Test
    void columnsOfOneNameKeepItWhileThePlansColumnsStayUnique() {
        try (NullsStore store = new NullsStore(dir)) {
            final SqlPlanner planner = new SqlPlanner(store.catalog(), List.of("t", "u", "v"));
            final PlannedQuery q = planner.plan("select t.k, u.k, t.id from t join u on t.id = u.id");
            assertThat(q.columns()).containsExactly("k", "k", "id");
            assertThat(q.plan().node()).isInstanceOf(io.sluice.engine.plan.PlanNode.Project.class);
            assertThat(((io.sluice.engine.plan.PlanNode.Project) q.plan().node()).items())
                    .extracting(io.sluice.engine.expr.NamedExpr::name).doesNotHaveDuplicates();
            assertThat(planner.plan("select k as k0, k from t").columns()).containsExactly("k0", "k");
        }
    }
}
