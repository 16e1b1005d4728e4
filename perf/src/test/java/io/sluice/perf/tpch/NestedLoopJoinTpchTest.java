package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Distribution;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.Strategy;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
 * Joins without equality keys from SQL over TPC-H SF 0.01: comma joins on less-than, a join on
 * BETWEEN, a cross join, a LEFT join, EXISTS and NOT EXISTS with non-equi correlations, a comparison
 * with an uncorrelated scalar subquery, and lineitem against a table of ranges, each planned by
 * {@link SqlPlanner} into nested-loop joins and run under every strategy on one CN's three workers
 * and on embedded clusters of 1x1 and 3x2, return what DuckDB returns for the same text (every
 * query orders its result completely, so rows are compared in order).
 */
class NestedLoopJoinTpchTest {
    static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("a comma join on less-than", """
                select n_name, r_name from nation, region
                where n_regionkey < r_regionkey
                order by n_name, r_name""");
        QUERIES.put("a join on BETWEEN", """
                select o_orderkey, c_custkey from orders join customer
                  on c_custkey between o_custkey - 1 and o_custkey + 1
                where o_custkey <= 60
                order by o_orderkey, c_custkey""");
        QUERIES.put("a cross join", """
                select r_name, n_name from region cross join nation
                where n_nationkey < 4
                order by r_name, n_name""");
        QUERIES.put("a left join without keys", """
                select n_name, r_name from nation left join region
                  on n_regionkey < r_regionkey and r_regionkey > 2
                order by n_name, r_name""");
        QUERIES.put("exists without keys", """
                select n_name from nation
                where exists (select * from region where r_regionkey > n_regionkey + 2)
                order by n_name""");
        QUERIES.put("not exists without keys", """
                select n_name from nation
                where not exists (select * from region where r_regionkey > n_regionkey + 2)
                order by n_name""");
        QUERIES.put("a comparison with an uncorrelated scalar subquery", """
                select c_custkey, c_acctbal from customer
                where c_acctbal > (select avg(c_acctbal) * 1.8 from customer)
                order by c_custkey""");
        QUERIES.put("a table against an aggregate's one row", """
                select n_name, c from nation, (select count(*) as c from orders) x
                where n_nationkey * 600 < c
                order by n_name""");
        QUERIES.put("lineitem against a range table", """
                select l_orderkey, l_linenumber, n_name from lineitem, nation
                where l_orderkey < 200 and l_quantity between n_nationkey * 2 and n_nationkey * 2 + 1
                order by l_orderkey, l_linenumber, n_name""");
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

    @Test
    void joinsWithoutKeysBecomeNestedLoopJoinsBroadcastToEveryCn() throws Exception {
        for (final Map.Entry<String, String> q : QUERIES.entrySet()) {
            final Plan plan = sql.planner().plan(q.getValue()).plan();
            assertThat(nestedLoopJoins(plan.node())).as(q.getKey()).isPositive();
            final Session.Execution execution = sql.assertOnCluster("3x2", q.getKey(), q.getValue(), Strategy.AUTO);
            assertThat(execution.decisions()).as(q.getKey())
                    .filteredOn(d -> d.operator().contains("nested loop join"))
                    .isNotEmpty().extracting(Decision::choice)
                    .as("the build copied to every CN, the probe rows where they are or spread round-robin")
                    .isSubsetOf(Distribution.BROADCAST, Distribution.ROUND_ROBIN);
        }
    }

    private static int nestedLoopJoins(final PlanNode node) {
        return SqlOracle.count(node, PlanNode.NestedLoopJoin.class);
    }
}
