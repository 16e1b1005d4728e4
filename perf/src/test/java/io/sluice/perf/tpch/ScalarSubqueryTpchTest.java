package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scalar subqueries from SQL over TPC-H SF 0.01, which SQL allows at most one row: one row gives
 * its value, no row NULL, one row per outer key of a correlated one its value, each equal to
 * DuckDB's answer; a subquery that gives two rows (in all, or for one outer key) fails the query in
 * Sluice with an error naming it, as it fails in DuckDB. Every case runs under every strategy on one
 * CN's three workers and on embedded clusters of 1x1 and 3x2.
 */
class ScalarSubqueryTpchTest {
    static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("one row", """
                select n_name, (select r_name from region where r_regionkey = 1) as r
                from nation order by n_name""");
        QUERIES.put("no row gives NULL", """
                select n_name, (select r_name from region where r_regionkey = 99) as r
                from nation order by n_name""");
        QUERIES.put("one row per outer key", """
                select n_name, (select r_name from region where r_regionkey = n_regionkey) as r
                from nation order by n_name""");
        QUERIES.put("in a WHERE", """
                select c_custkey, c_name from customer
                where c_nationkey = (select n_nationkey from nation where n_name = 'BRAZIL')
                order by c_custkey""");
    }

    /** Subqueries that return two rows: DuckDB and Sluice must both refuse them. */
    static final Map<String, String> FAILING = new LinkedHashMap<>();

    static {
        FAILING.put("two rows", """
                select n_name, (select r_name from region where r_regionkey < 2) as r
                from nation order by n_name""");
        FAILING.put("two rows for an outer key", """
                select n1.n_name, (select n2.n_name from nation n2 where n2.n_regionkey = n1.n_regionkey) as other
                from nation n1 order by n1.n_name""");
    }

    @TempDir
    static Path dir;

    private static SqlOracle sql;

    @BeforeAll
    static void generate() throws Exception {
        sql = SqlOracle.generate(dir);
    }

    @AfterAll
    static void close() {
        CloseHelper.close(sql);
    }

    static Stream<Arguments> queriesAndStrategies() {
        return SqlOracle.withStrategies(QUERIES.keySet());
    }

    static Stream<Arguments> topologiesQueriesAndStrategies() {
        return SqlOracle.withTopologiesAndStrategies(QUERIES.keySet());
    }

    @ParameterizedTest(name = "{0} {1} on 3 cores")
    @MethodSource("queriesAndStrategies")
    void onOneCnTheSameAsDuckDb(final String name, final Strategy strategy) throws Exception {
        sql.assertOnOneCn(name, QUERIES.get(name), strategy);
    }

    @ParameterizedTest(name = "{1} {2} on {0}")
    @MethodSource("topologiesQueriesAndStrategies")
    void onAClusterTheSameAsDuckDb(final String topology, final String name, final Strategy strategy)
            throws Exception {
        sql.assertOnCluster(topology, name, QUERIES.get(name), strategy);
    }

    static Stream<Arguments> failingEverywhere() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String q : FAILING.keySet()) {
            for (final Strategy s : Strategy.values()) {
                for (final String t : List.of("one CN", "1x1", "3x2")) {
                    cases.add(Arguments.of(q, s, t));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} on {2}")
    @MethodSource("failingEverywhere")
    void twoRowsFailInSluiceAsInDuckDb(final String name, final Strategy strategy, final String where) {
        final String text = FAILING.get(name);
        assertThatThrownBy(() -> sql.oracle().assertSameAsDuckDb(name, text, null))
                .as("DuckDB refuses it").isInstanceOf(SQLException.class).hasMessageContaining("More than one row");
        final Plan plan = sql.planner().plan(text).plan();
        final StrategyConfig config = StrategyConfig.defaults().withStrategy(strategy);
        final Throwable thrown = catchThrowable(() -> {
            if (where.equals("one CN")) {
                try (QueryRunner runner = new QueryRunner(sql.oracle().catalog(), 3, config)) {
                    runner.run(plan);
                }
            } else {
                sql.session(where).execute("scalar-failing", plan, config);
            }
        });
        assertThat(thrown).as("Sluice refuses it").isNotNull();
        assertThat(messages(thrown)).contains("scalar subquery returned more than one row: the subquery over");
    }

    @Test
    void aSingleValueBecomesAnAssertionNotAnAggregate() {
        for (final String text : List.of(QUERIES.get("one row"), FAILING.get("two rows for an outer key"))) {
            final PlanNode root = sql.planner().plan(text).plan().node();
            assertThat(SqlOracle.count(root, PlanNode.AssertOneRow.class)).as(text).isEqualTo(1);
            assertThat(SqlOracle.count(root, PlanNode.Aggregation.class)).as(text).isZero();
        }
    }

    /** The messages of a throwable and its causes, one line each. */
    private static String messages(final Throwable t) {
        final StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c).append('\n');
        }
        return sb.toString();
    }
}
