package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.plan.PlanNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code x NOT IN (SELECT y ...)} over keys that may be NULL plans as one null-aware anti join
 * instead of Calcite's cross join with the subquery's counts and left join with its keys; over keys
 * that are never NULL it stays a plain anti join, and a NOT IN mixed into other logic keeps Calcite's
 * form. (What the joins return is checked against DuckDB in perf.)
 */
class NotInSubqueryTest {
    @TempDir
    Path dir;

    private NullsStore store;
    private SqlPlanner planner;

    @BeforeEach
    void open() {
        store = new NullsStore(dir);
        planner = new SqlPlanner(store.catalog(), List.of("t", "u", "v"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void notInOverNullableKeysIsOneNullAwareAntiJoin() {
        for (final String sql : List.of("select id from t where k not in (select k from u)",
                "select id from t where k not in (select k from v)",
                "select id from t where id not in (select k from u)",
                "select id from t where k not in (select k from u where u.id > 3)")) {
            final List<PlanNode.Join> joins = joins(sql);
            assertThat(joins).as(sql).hasSize(1);
            assertThat(joins.get(0).type()).as(sql).isEqualTo(JoinType.NULL_AWARE_ANTI);
            assertThat(joins.get(0).condition()).as(sql).isNull();
        }
    }

    @Test
    void theFiltersOtherTermsStayAFilterOverTheProbe() {
        final List<PlanNode.Join> joins = joins(
                "select id from t where k not in (select k from u) and id > 3 and (k > 2 or id < 10)");
        assertThat(joins).hasSize(1);
        assertThat(joins.get(0).type()).isEqualTo(JoinType.NULL_AWARE_ANTI);
        assertThat(joins.get(0).probe().toString()).contains("id > 3").contains("k > 2");
    }

    @Test
    void notInOverKeysThatAreNeverNullIsAPlainAntiJoin() {
        final List<PlanNode.Join> joins = joins("select id from t where id not in (select id from v)");
        assertThat(joins).extracting(PlanNode.Join::type).containsExactly(JoinType.ANTI);
    }

    @Test
    void notInUnderAnOrOrCorrelatedKeepsCalcitesForm() {
        final SqlFrontEnd frontEnd = new SqlFrontEnd(store.catalog(), List.of("t", "u", "v"));
        for (final String sql : List.of("select id from t where k not in (select k from u) or id = 3",
                "select id from t where k not in (select k from u where u.id = t.id)",
                "select id from t where k in (select k from u) and k not in (select k from v)")) {
            final org.apache.calcite.rel.RelNode rel = frontEnd.convert(sql).rel();
            final List<org.apache.calcite.rel.core.Filter> filters = new ArrayList<>();
            filters(rel, filters);
            assertThat(filters).as(sql).isNotEmpty();
            final long recognised = filters.stream().filter(f -> NotInSubquery.of(f) != null).count();
            assertThat(recognised).as(sql).isEqualTo(sql.contains(" or ") || sql.contains("t.id") ? 0 : 1);
        }
    }

    private static void filters(final org.apache.calcite.rel.RelNode rel,
                                final List<org.apache.calcite.rel.core.Filter> out) {
        if (rel instanceof org.apache.calcite.rel.core.Filter f) {
            out.add(f);
        }
        for (final org.apache.calcite.rel.RelNode input : rel.getInputs()) {
            filters(input, out);
        }
    }

    private List<PlanNode.Join> joins(final String sql) {
        final List<PlanNode.Join> out = new ArrayList<>();
        collect(planner.plan(sql).plan().node(), out);
        return out;
    }

    private static void collect(final PlanNode node, final List<PlanNode.Join> out) {
        if (node instanceof PlanNode.Join j) {
            out.add(j);
            collect(j.probe(), out);
            collect(j.build(), out);
        } else if (node instanceof PlanNode.Filter f) {
            collect(f.input(), out);
        } else if (node instanceof PlanNode.Project p) {
            collect(p.input(), out);
        } else if (node instanceof PlanNode.Aggregation a) {
            collect(a.input(), out);
        } else if (node instanceof PlanNode.OrderBy o) {
            collect(o.input(), out);
        } else if (node instanceof PlanNode.Limit l) {
            collect(l.input(), out);
        }
    }
}
