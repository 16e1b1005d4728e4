package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.format.Schema;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.storage.TableSpec;
import io.sluice.storage.TableWriter;
import io.sluice.zonemap.TableSketch;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An aggregation over a dimension's inner join, grouped by dimension columns that tell its keys apart, groups
 * the other side by the join key below the join and gives the rows of the aggregation over the join; a
 * dimension grouped by a column many keys share, a filtered dimension, an aggregate of the dimension's
 * columns, a dimension grouped by its key alone, or the larger table taken as the dimension are planned as
 * written. The expected rows are computed from how the tables are written:
 * {@code dim(dk, name, grp)} with {@code dk = 0..999} in order, {@code name = 'n' || dk},
 * {@code grp = dk mod 3}; {@code fact(fk, v, y)} of {@value #FACT_ROWS} rows, row i with
 * {@code fk = (7 i) mod 1200} (keys from 1000 meet no dimension row), NULL on every 13th row,
 * {@code v = (i mod 100) / 100}, {@code y = i mod 4}. (Answers over NULLs and repeated dimension keys
 * are compared with DuckDB's in perf's NULL corpus.)
 */
class AggregateBelowDimensionJoinTest {
    private static final int DIM_ROWS = 1000;
    private static final int FACT_ROWS = 20_000;

    @TempDir
    static Path dir;

    private static StoreCatalog catalog;
    private static SqlPlanner planner;

    @BeforeAll
    static void create() {
        final Store store = Store.create(dir.resolve("store"));
        try (TableWriter writer = store.write(TableSpec.of("dim", Schema.parse("dk:int64,name:string,grp:int64"))
                .withPresortedKey("dk"))) {
            for (int k = 0; k < DIM_ROWS; k++) {
                writer.column(0).appendLong(k);
                writer.column(1).appendString("n" + k);
                writer.column(2).appendLong(k % 3);
                writer.endRow();
            }
            writer.finish().close();
        }
        try (TableWriter writer = store.write(TableSpec.of("fact",
                Schema.parse("fk:int64,v:decimal(15,2),y:int64")).withBlockRows(4096))) {
            for (int i = 0; i < FACT_ROWS; i++) {
                final Long fk = fk(i);
                if (fk == null) {
                    writer.column(0).appendNull();
                } else {
                    writer.column(0).appendLong(fk);
                }
                writer.column(1).appendLong(i % 100);
                writer.column(2).appendLong(i % 4);
                writer.endRow();
            }
            writer.finish().close();
        }
        labels(store, "sdim", true);
        labels(store, "zdim", false);
        catalog = new StoreCatalog(store);
        planner = new SqlPlanner(catalog, List.of("dim", "fact", "sdim", "zdim"));
    }

    /** {@code (lk, label)} with {@code lk = 0..999} and four labels {@code 'label-' || lk mod 4}, in one block. */
    private static void labels(final Store store, final String name, final boolean sketched) {
        final Schema schema = Schema.parse("lk:int64,label:string");
        final TableWriter writer = store.write(TableSpec.of(name, schema).withPresortedKey("lk").withBlockRows(4096));
        try (TableWriter w = sketched ? writer.gather(TableSketch.builder(schema)) : writer) {
            for (int k = 0; k < DIM_ROWS; k++) {
                w.column(0).appendLong(k);
                w.column(1).appendString("label-" + k % 4);
                w.endRow();
            }
            w.finish().close();
        }
    }

    @AfterAll
    static void close() {
        catalog.close();
    }

    private static Long fk(final int row) {
        return row % 13 == 0 ? null : (long) (7 * row % 1200);
    }

    private static QueryResult run(final PlannedQuery planned) {
        try (QueryRunner runner = new QueryRunner(catalog, 2)) {
            return runner.run(planned.plan());
        }
    }

    /** Whether some join of the plan meets a scan of {@code dim} and, on its other side, an aggregation (through projections). */
    private static boolean groupsBelowTheDimensionJoin(final PlanNode node) {
        return groupsBelowTheJoinWith(node, "dim");
    }

    /** Whether some join of the plan meets a scan of a table and, on its other side, an aggregation (through projections). */
    private static boolean groupsBelowTheJoinWith(final PlanNode node, final String table) {
        if (node instanceof PlanNode.Join j) {
            return isScanOf(j.probe(), table) && isAggregation(j.build()) || isScanOf(j.build(), table) && isAggregation(j.probe())
                    || groupsBelowTheJoinWith(j.probe(), table) || groupsBelowTheJoinWith(j.build(), table);
        }
        if (node instanceof PlanNode.Project p) {
            return groupsBelowTheJoinWith(p.input(), table);
        }
        if (node instanceof PlanNode.Filter f) {
            return groupsBelowTheJoinWith(f.input(), table);
        }
        if (node instanceof PlanNode.OrderBy o) {
            return groupsBelowTheJoinWith(o.input(), table);
        }
        return node instanceof PlanNode.Aggregation a && groupsBelowTheJoinWith(a.input(), table);
    }

    private static boolean isScanOf(final PlanNode node, final String table) {
        return node instanceof PlanNode.Scan s && s.table().equals(table)
                || node instanceof PlanNode.Project p && isScanOf(p.input(), table);
    }

    private static boolean isAggregation(final PlanNode node) {
        return node instanceof PlanNode.Aggregation
                || node instanceof PlanNode.Project p && isAggregation(p.input());
    }

    @Test
    void sumsCountsAndExtremesGroupedByTheDimensionsNamesAreTakenBelowTheJoin() {
        final PlannedQuery planned = planner.plan("select name, y, sum(v) as total, count(*) as n, count(fk) as c,"
                + " min(v) as lo, max(fk) as hi from fact, dim where fk = dk group by name, y");
        assertThat(groupsBelowTheDimensionJoin(planned.plan().node())).isTrue();
        // Per (name, y): rows, sum of v in cents, smallest v in cents, largest fk.
        final Map<List<Object>, long[]> groups = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        for (int i = 0; i < FACT_ROWS; i++) {
            final Long fk = fk(i);
            if (fk == null || fk >= DIM_ROWS) {
                continue;
            }
            final long[] g = groups.computeIfAbsent(List.of("n" + fk, (long) (i % 4)),
                    key -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
            g[0]++;
            g[1] += i % 100;
            g[2] = Math.min(g[2], i % 100);
            g[3] = Math.max(g[3], fk);
        }
        final List<List<Object>> expected = new ArrayList<>();
        groups.forEach((key, g) -> expected.add(List.of(key.get(0), key.get(1), BigDecimal.valueOf(g[1], 2), g[0],
                g[0], BigDecimal.valueOf(g[2], 2), g[3])));
        assertThat(run(planned).rows()).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Grouped by names a derived table gives the columns: the rewritten plan keeps them, as DuckDB would show them. */
    @Test
    void theRewrittenAggregationKeepsTheNamesItsQueryGaveItsColumns() {
        final PlannedQuery planned = planner.plan("select label, yr, sum(v) as total from (select name as label,"
                + " y as yr, v from fact, dim where fk = dk) t group by label, yr");
        assertThat(groupsBelowTheDimensionJoin(planned.plan().node())).isTrue();
        assertThat(run(planned).rowType().names()).containsExactly("label", "yr", "total");
    }

    @Test
    void aDimensionColumnManyKeysShareStaysGroupedAboveTheJoin() {
        final PlannedQuery planned = planner.plan("select grp, sum(v) as total from fact, dim where fk = dk group by grp");
        assertThat(groupsBelowTheDimensionJoin(planned.plan().node())).isFalse();
        final long[] cents = new long[3];
        for (int i = 0; i < FACT_ROWS; i++) {
            final Long fk = fk(i);
            if (fk != null && fk < DIM_ROWS) {
                cents[(int) (fk % 3)] += i % 100;
            }
        }
        assertThat(run(planned).rows()).containsExactlyInAnyOrder(List.of(0L, BigDecimal.valueOf(cents[0], 2)),
                List.of(1L, BigDecimal.valueOf(cents[1], 2)), List.of(2L, BigDecimal.valueOf(cents[2], 2)));
    }

    @Test
    void aFilteredDimensionAnAggregateOfItsColumnsOrTheLargerTableStaysAboveTheJoin() {
        for (final String sql : List.of(
                "select name, sum(v) as total from fact, dim where fk = dk and grp = 1 group by name",
                "select name, sum(v) as total, max(grp) as g from fact, dim where fk = dk group by name",
                "select name, sum(v) as total from fact, dim where fk = dk and y < dk group by name",
                // Grouped by the dimension's key alone: the join only filters.
                "select dk, sum(v) as total from fact, dim where fk = dk group by dk",
                // The larger table grouped by its own columns is not taken as the dimension.
                "select fk, y, count(*) as n from fact, dim where fk = dk group by fk, y")) {
            assertThat(groupsBelowTheDimensionJoin(planner.plan(sql).plan().node())).as(sql).isFalse();
        }
    }

    /**
     * Grouped by the dimension's names and {@code v}: {@code fk} and {@code v} make up to 1200 x 100 partial
     * groups, more than the fact's rows, so grouping the fact first would remove about no row.
     */
    @Test
    void aGroupingThatKeepsAboutEveryFactRowStaysAboveTheJoin() {
        final PlannedQuery planned = planner.plan("select name, v, count(*) as n from fact, dim where fk = dk group by name, v");
        assertThat(groupsBelowTheDimensionJoin(planned.plan().node())).isFalse();
        long matched = 0;
        for (int i = 0; i < FACT_ROWS; i++) {
            final Long fk = fk(i);
            if (fk != null && fk < DIM_ROWS) {
                matched++;
            }
        }
        long counted = 0;
        for (final List<Object> row : run(planned).rows()) {
            counted += (Long) row.get(2);
        }
        assertThat(counted).isEqualTo(matched);
    }

    /**
     * A string column in one block looks about unique to its zonemap; the sketch a table keeps counts its four
     * labels, so grouping by the label, which many keys share, stays above the join where the table keeps one.
     */
    @Test
    void theSketchATableKeepsCountsTheDistinctValuesOfAStringColumn() {
        final String sql = "select label, y, count(*) as n from fact, %s where fk = lk group by label, y";
        assertThat(groupsBelowTheJoinWith(planner.plan(sql.formatted("zdim")).plan().node(), "zdim")).isTrue();
        final PlannedQuery planned = planner.plan(sql.formatted("sdim"));
        assertThat(groupsBelowTheJoinWith(planned.plan().node(), "sdim")).isFalse();
        final Map<List<Object>, Long> counts = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        for (int i = 0; i < FACT_ROWS; i++) {
            final Long fk = fk(i);
            if (fk != null && fk < DIM_ROWS) {
                counts.merge(List.of("label-" + fk % 4, (long) (i % 4)), 1L, Long::sum);
            }
        }
        final List<List<Object>> expected = new ArrayList<>();
        counts.forEach((key, n) -> expected.add(List.of(key.get(0), key.get(1), n)));
        assertThat(run(planned).rows()).containsExactlyInAnyOrderElementsOf(expected);
    }
}
