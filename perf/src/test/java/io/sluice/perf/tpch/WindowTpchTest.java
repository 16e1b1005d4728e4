package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Distribution;
import io.sluice.engine.plan.Strategy;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Path;
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
 * Window functions from SQL over TPC-H SF 0.01: ranks of each customer's orders, running sums per
 * order, numbers over a whole small table with peers, a window over a join and over a group-by,
 * and a top-2 per partition, each planned by {@link SqlPlanner} and run under every strategy on one
 * CN's three workers and on embedded clusters of 1x1 and 3x2, return what DuckDB returns for the
 * same text (every query orders its result completely, so rows are compared in order).
 */
class WindowTpchTest {
    static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("ranks of a customer's orders by price", """
                select o_custkey, o_orderkey, o_totalprice,
                  rank() over (partition by o_custkey order by o_totalprice desc) as rnk,
                  dense_rank() over (partition by o_custkey order by o_orderstatus) as drnk,
                  row_number() over (partition by o_custkey order by o_totalprice desc, o_orderkey) as rn
                from orders where o_custkey < 300
                order by o_custkey, o_orderkey""");
        QUERIES.put("running sums per order by line number", """
                select l_orderkey, l_linenumber, l_quantity,
                  sum(l_quantity) over (partition by l_orderkey order by l_linenumber) as run_qty,
                  count(*) over (partition by l_orderkey order by l_linenumber) as n,
                  avg(l_extendedprice) over (partition by l_orderkey) as avg_price,
                  min(l_discount) over (partition by l_orderkey order by l_linenumber
                                        rows between unbounded preceding and current row) as min_disc,
                  max(l_tax) over (partition by l_orderkey) as max_tax
                from lineitem where l_orderkey < 4000
                order by l_orderkey, l_linenumber""");
        QUERIES.put("a whole small table with peers", """
                select n_name, n_regionkey,
                  row_number() over (order by n_name) as rn,
                  rank() over (order by n_regionkey) as rnk,
                  sum(n_nationkey) over (order by n_regionkey) as running_with_peers,
                  count(*) over () as total
                from nation order by n_name""");
        QUERIES.put("over a join on the partition key", """
                select o_orderkey, l_linenumber,
                  sum(l_extendedprice) over (partition by o_orderkey) as order_total,
                  rank() over (partition by o_orderkey order by l_quantity desc) as by_quantity
                from orders join lineitem on o_orderkey = l_orderkey
                where o_orderdate < date '1992-04-01'
                order by o_orderkey, l_linenumber""");
        QUERIES.put("over a group-by", """
                select o_orderpriority, count(*) as n,
                  rank() over (order by count(*) desc) as r,
                  sum(count(*)) over (order by o_orderpriority) as run_n
                from orders group by o_orderpriority
                order by o_orderpriority""");
        QUERIES.put("partitions of a group-by's groups", """
                select o_orderstatus, o_orderpriority, count(*) as n,
                  rank() over (partition by o_orderstatus order by count(*) desc) as r,
                  sum(count(*)) over (partition by o_orderstatus) as status_total
                from orders group by o_orderstatus, o_orderpriority
                order by o_orderstatus, o_orderpriority""");
        QUERIES.put("top 2 per nation", """
                select c_nationkey, c_custkey, c_acctbal, rn from (
                  select c_nationkey, c_custkey, c_acctbal,
                    row_number() over (partition by c_nationkey order by c_acctbal desc, c_custkey) as rn
                  from customer) ranked
                where rn <= 2
                order by c_nationkey, rn""");
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
    void aWindowPartitionedByTheKeyOfAShuffleJoinReusesItsShuffle() throws Exception {
        final String text = """
                select o_orderkey, l_linenumber, sum(l_extendedprice) over (partition by o_orderkey) as order_total
                from orders join lineitem on o_orderkey = l_orderkey
                where o_orderdate < date '1992-04-01'
                order by o_orderkey, l_linenumber""";
        final Session.Execution execution = sql.assertOnCluster("3x2", "window-reuse", text, Strategy.SHUFFLE_HASH);
        assertThat(windowChoices(execution.decisions())).containsExactly(Distribution.REUSE_SHUFFLE);
    }

    @Test
    void aWindowWithoutPartitionByIsGatheredAndOneWithItHashShuffled() throws Exception {
        final Session.Execution gathered = sql.assertOnCluster("3x2", "window-gather",
                QUERIES.get("a whole small table with peers"), Strategy.AUTO);
        assertThat(windowChoices(gathered.decisions())).isNotEmpty().containsOnly(Distribution.GATHER);
        final Session.Execution shuffled = sql.assertOnCluster("3x2", "window-hash", QUERIES.get("top 2 per nation"),
                Strategy.AUTO);
        assertThat(windowChoices(shuffled.decisions())).containsExactly(Distribution.SHUFFLE_HASH);
    }

    private static List<Distribution> windowChoices(final List<Decision> decisions) {
        final List<Distribution> out = new ArrayList<>();
        for (final Decision d : decisions) {
            if (d.operator().startsWith("window")) {
                out.add(d.choice());
            }
        }
        return out;
    }
}
