package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.QueryRunner;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A planner plans a text once and finds its plan again when the same text comes back (with or without a
 * trailing semicolon), keeps at most as many as its capacity, least recently used dropped first, and
 * plans every statement with a capacity of 0; a cached plan gives the rows planning anew gives.
 */
class PlanCacheTest extends OverTestStore {
    private static final String SUM = "select count(*) as n, sum(v) as total from t where k between 100 and 900";

    private static QueryResult run(final PlannedQuery planned) {
        try (QueryRunner runner = new QueryRunner(store.catalog(), 2)) {
            return runner.run(planned.plan());
        }
    }

    @Test
    void theSameTextIsPlannedOnceAndGivesTheSameRows() {
        final SqlPlanner sql = new SqlPlanner(store.catalog(), List.of("t"), 8);
        final PlannedQuery first = sql.plan(SUM);
        final PlannedQuery again = sql.plan(SUM + " ;");
        assertThat(first.cached()).isFalse();
        assertThat(again.cached()).isTrue();
        assertThat(again.plan()).isSameAs(first.plan());
        assertThat(again.columns()).isEqualTo(first.columns());
        assertThat(again.estimates()).isEqualTo(first.estimates());
        final QueryResult fresh = run(new SqlPlanner(store.catalog(), List.of("t"), 0).plan(SUM));
        assertThat(run(again).rows()).isEqualTo(fresh.rows());
        assertThat(fresh.value(0, 0)).isEqualTo(801L);
    }

    @Test
    void aCapacityOfZeroPlansEveryStatement() {
        final SqlPlanner sql = new SqlPlanner(store.catalog(), List.of("t"), 0);
        final PlannedQuery first = sql.plan(SUM);
        final PlannedQuery again = sql.plan(SUM);
        assertThat(again.cached()).isFalse();
        assertThat(again.plan()).isNotSameAs(first.plan());
        assertThat(again.plan().node()).isEqualTo(first.plan().node());
    }

    @Test
    void theLeastRecentlyUsedPlanIsDroppedFirst() {
        final SqlPlanner sql = new SqlPlanner(store.catalog(), List.of("t"), 2);
        final String a = "select count(*) as n from t where k < 10";
        final String b = "select count(*) as n from t where k < 20";
        final String c = "select count(*) as n from t where k < 30";
        sql.plan(a);
        sql.plan(b);
        assertThat(sql.plan(a).cached()).isTrue();
        sql.plan(c);
        assertThat(sql.plan(a).cached()).as("used after b").isTrue();
        assertThat(sql.plan(b).cached()).as("the least recently used of three").isFalse();
    }

    @Test
    void aTextThatFailsIsNotKept() {
        final SqlPlanner sql = new SqlPlanner(store.catalog(), List.of("t"), 8);
        assertThatThrownBy(() -> sql.plan("select nope from t")).isInstanceOf(SqlException.class);
        assertThatThrownBy(() -> sql.plan("select nope from t")).isInstanceOf(SqlException.class)
                .hasMessageContaining("nope");
    }

    @Test
    void aBadCapacityPropertyNamesTheFix() {
        final String before = System.getProperty(PlanCache.CAPACITY_PROPERTY);
        System.setProperty(PlanCache.CAPACITY_PROPERTY, "lots");
        try {
            assertThatThrownBy(() -> new SqlPlanner(store.catalog(), List.of("t")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sluice.sql.planCache=lots")
                    .hasMessageContaining("-Dsluice.sql.planCache=0");
            System.setProperty(PlanCache.CAPACITY_PROPERTY, "0");
            final SqlPlanner none = new SqlPlanner(store.catalog(), List.of("t"));
            none.plan(SUM);
            assertThat(none.plan(SUM).cached()).isFalse();
        } finally {
            if (before == null) {
                System.clearProperty(PlanCache.CAPACITY_PROPERTY);
            } else {
                System.setProperty(PlanCache.CAPACITY_PROPERTY, before);
            }
        }
    }
}
