package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Distribution;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Shuffle joins keep the range partitioning a side already has (PKEY) and need no exchange when both
 * sides have the same one, over SF 0.01 TPC-H on embedded clusters: the answers equal DuckDB's with and
 * without the rule, the shuffles it removes are gone from the run's exchanges, and the rows crossing CNs
 * fall.
 */
class PartitionReuseTest {
    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static Session session;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        session = new Session(oracle.store(), new Topology(3, 2));
    }

    @AfterAll
    static void close() throws Exception {
        if (session != null) {
            session.close();
        }
        if (oracle != null) {
            oracle.close();
        }
    }

    private static Session.Execution run(final String name, final Plan plan, final boolean reuse) {
        return session.execute(name, plan, StrategyConfig.defaults().withStrategy(Strategy.AUTO)
                .withThresholds(1_000, 1_000).withPartitionReuse(reuse));
    }

    private static List<Distribution> joins(final Session.Execution e, final String operator) {
        return e.decisions().stream().filter(d -> d.operator().equals(operator)).map(Decision::choice).toList();
    }

    /** The exchanges that shuffle rows to the owners of their buckets. */
    private static List<QueryStats.ExchangeStats> shuffles(final Session.Execution e) {
        return e.stats().exchanges().stream().filter(x -> x.mode().equals("TO_OWNER")).toList();
    }

    /** Rows the shuffles sent, to this CN's cores or to others. */
    private static long shuffledRows(final Session.Execution e) {
        return shuffles(e).stream().mapToLong(x -> x.rowsLocal() + x.rowsRemote()).sum();
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"3x2", "1x2"})
    void q18sJoinsOnTheOrderKeyKeepTheGroupBysBuckets(final String topology) throws Exception {
        session.topology(Topology.parse(topology));
        final Query q18 = TpchOracle.query("q18");
        final Plan plan = new SqlPlanner(oracle.catalog(), oracle.store().tableNames()).plan(q18.sql()).plan();
        final Session.Execution reused = run("q18", plan, true);
        final Session.Execution planned = run("q18", plan, false);
        oracle.assertSameAsDuckDb(q18, reused.result());
        oracle.assertSameAsDuckDb(q18, planned.result());

        // The HAVING's orders are the build of the join with orders: the group-by's output is its build side as
        // bucketed, orders read by colocated scans of those buckets. That shuffle sent every row to the CN it was
        // on already (the same buckets), and is gone.
        final String withOrders = "join [o_orderkey] = [l_orderkey]";
        assertThat(joins(reused, withOrders)).containsExactly(Distribution.PKEY);
        assertThat(joins(planned, withOrders)).doesNotContain(Distribution.PKEY, Distribution.REUSE_SHUFFLE);
        assertThat(shuffles(reused)).hasSize(shuffles(planned).size() - 1);
        assertThat(reused.stats().rowsRemote()).isEqualTo(planned.stats().rowsRemote());
        assertThat(shuffledRows(reused)).isLessThan(shuffledRows(planned));
    }

    @Test
    void twoGroupBysOnTheSameKeyJoinWithoutAnyShuffle() throws Exception {
        session.topology(new Topology(3, 2));
        final Plan quantities = Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .aggregate(Plan.groupBy("l_orderkey"), Plan.sum(col("l_quantity"), "quantity"));
        final Plan late = Plan.scan("lineitem", "l_orderkey", "l_shipdate")
                .filter(Expr.ge(col("l_shipdate"), Expr.date("1996-01-01")))
                .aggregate(Plan.groupBy("l_orderkey"), Plan.count("late"))
                .project(new NamedExpr("k", col("l_orderkey")), new NamedExpr("late", col("late")));
        final Plan joined = quantities.join(JoinType.INNER, late, List.of("l_orderkey"), List.of("k"))
                .select("l_orderkey", "quantity", "late").orderBy(SortKey.asc("l_orderkey"));
        final String sql = "SELECT q.l_orderkey, q.quantity, l.late FROM"
                + " (SELECT l_orderkey, sum(l_quantity) AS quantity FROM lineitem GROUP BY l_orderkey) q JOIN"
                + " (SELECT l_orderkey AS k, count(*) AS late FROM lineitem WHERE l_shipdate >= DATE '1996-01-01'"
                + " GROUP BY l_orderkey) l ON q.l_orderkey = l.k ORDER BY q.l_orderkey";

        final Session.Execution reused = run("two groups", joined, true);
        oracle.assertSameAsDuckDb("two groups", sql, reused.result());
        assertThat(joins(reused, "join [l_orderkey] = [k]")).containsExactly(Distribution.REUSE_SHUFFLE);
        assertThat(reused.stats().exchanges()).extracting(QueryStats.ExchangeStats::mode).containsOnly("GATHER");

        final Session.Execution planned = run("two groups", joined, false);
        oracle.assertSameAsDuckDb("two groups", sql, planned.result());
        assertThat(shuffles(planned)).isNotEmpty();
        assertThat(shuffledRows(planned)).isPositive();
    }
}
