package io.sluice.perf.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.plan.DecidedPlan;
import io.sluice.engine.plan.PhysicalPlanner;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PlanNode;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.perf.tpch.TpchSkew;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.shuffle.Topology;
import io.sluice.sql.SqlPlanner;
import io.sluice.zonemap.HeavyKey;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heavy keys dispatched apart on skewed TPC-H ({@code gen --skew 1.5}, SF 0.01, where one customer places about
 * a third of the orders): the decided plan names the heaviest {@code o_custkey} with its share, the rows per
 * bucket of the join's exchanges (what {@code sluice bench} reports as {@code bucket_max_over_mean}) are more
 * even than with every key sent to its owner, and the answers stay DuckDB's.
 */
class HeavyKeyDispatchTest {
    private static final Topology THREE_BY_TWO = new Topology(3, 2);
    private static final String JOIN = "select c_mktsegment, count(*) as orders, sum(o_totalprice) as total"
            + " from orders, customer where o_custkey = c_custkey group by c_mktsegment order by c_mktsegment";

    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static SqlPlanner planner;
    private static Session session;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01, TpchSkew.of(1.5));
        planner = new SqlPlanner(oracle.catalog(), oracle.store().tableNames());
        session = new Session(oracle.store(), THREE_BY_TWO);
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

    private static StrategyConfig config(final Strategy strategy, final boolean heavyKeys) {
        return StrategyConfig.defaults().withStrategy(strategy).withHeavyKeys(heavyKeys);
    }

    private static DecidedPlan decide(final String sql, final Strategy strategy, final boolean heavyKeys) {
        return PhysicalPlanner.plan(planner.plan(sql).plan(), config(strategy, heavyKeys), oracle.catalog(),
                THREE_BY_TWO, true);
    }

    /** The most frequent o_custkey and its share of the orders, counted by DuckDB. */
    private static double[] heaviestCustomer() throws Exception {
        try (Statement st = oracle.duckDb().createStatement();
             ResultSet rs = st.executeQuery("select o_custkey, count(*) * 1.0 / (select count(*) from orders)"
                     + " from orders group by o_custkey order by 2 desc limit 1")) {
            rs.next();
            return new double[] {rs.getLong(1), rs.getDouble(2)};
        }
    }

    @Test
    void theDecidedPlanCarriesTheHeaviestCustomerWithItsShare() throws Exception {
        final double[] heaviest = heaviestCustomer();
        for (final Strategy strategy : List.of(Strategy.SHUFFLE_RANGE, Strategy.SHUFFLE_HASH)) {
            // The group-by on c_mktsegment (five values) has heavy keys too: keep the join's.
            final Map<PlanNode, List<HeavyKey>> heavy = new LinkedHashMap<>(
                    decide(JOIN, strategy, true).heavyKeys());
            heavy.keySet().removeIf(n -> !(n instanceof PlanNode.Join));
            assertThat(heavy).as(strategy.cliName()).hasSize(1);
            final PlanNode.Join join = (PlanNode.Join) heavy.keySet().iterator().next();
            assertThat(((ColumnRef) join.probeKeys().get(0)).name()).isEqualTo("o_custkey");
            final HeavyKey top = heavy.get(join).get(0);
            assertThat(top.key()).isEqualTo((long) heaviest[0]);
            assertThat(top.share()).isCloseTo(heaviest[1], offset(0.01));
            // A range join dispatches apart keys above a quarter of a bucket (lighter ones its boundaries cut
            // around on both sides); a hash cannot place a key, so it takes lighter ones.
            final int fraction = strategy == Strategy.SHUFFLE_RANGE ? 4 : 8;
            for (final HeavyKey h : heavy.get(join)) {
                assertThat(h.share()).isGreaterThan(1.0 / (fraction * THREE_BY_TWO.bucketCount()));
            }
            assertThat(decide(JOIN, strategy, false).heavyKeys()).as(strategy.cliName()).isEmpty();
        }
    }

    @Test
    void aGroupByOfFiveValuesAggregatesPartiallyBeforeItsShuffle() {
        for (final Strategy strategy : List.of(Strategy.SHUFFLE_RANGE, Strategy.SHUFFLE_HASH)) {
            final Map<PlanNode, List<HeavyKey>> heavy = decide(JOIN, strategy, true).heavyKeys();
            assertThat(heavy.keySet()).as(strategy.cliName()).filteredOn(n -> n instanceof PlanNode.Aggregation)
                    .hasSize(1);
        }
    }

    @Test
    void theFullestBucketFallsTowardsTheMeanWithHeavyKeysDispatchedApart() throws Exception {
        final Plan plan = planner.plan(JOIN).plan();
        final Session.Execution owner = session.execute("owner", plan, config(Strategy.SHUFFLE_RANGE, false));
        final Session.Execution perKey = session.execute("per key", plan, config(Strategy.SHUFFLE_RANGE, true));
        oracle.assertSameRowsAsDuckDb("owner", JOIN, owner.result());
        oracle.assertSameRowsAsDuckDb("per key", JOIN, perKey.result());
        final double before = probeExchange(owner);
        final double after = probeExchange(perKey);
        System.out.printf("bucket max/mean of the o_custkey join on 3x2, skew 1.5: owner %.3f, per key %.3f%n",
                before, after);
        assertThat(after).isLessThan(before);
    }

    @Test
    void aGroupByOnTheHeavyCustomerAggregatesPartiallyBeforeItsShuffle() throws Exception {
        final String sql = "select o_custkey, count(*) as orders, sum(o_totalprice) as total from orders"
                + " group by o_custkey order by o_custkey";
        final double[] heaviest = heaviestCustomer();
        final Map<PlanNode, List<HeavyKey>> heavy = decide(sql, Strategy.SHUFFLE_RANGE, true).heavyKeys();
        assertThat(heavy).hasSize(1);
        assertThat(heavy.keySet().iterator().next()).isInstanceOf(PlanNode.Aggregation.class);
        assertThat(heavy.values().iterator().next().get(0).key()).isEqualTo((long) heaviest[0]);
        final Plan plan = planner.plan(sql).plan();
        final Session.Execution rows = session.execute("rows", plan, config(Strategy.SHUFFLE_RANGE, false));
        final Session.Execution partial = session.execute("partial", plan, config(Strategy.SHUFFLE_RANGE, true));
        oracle.assertSameAsDuckDb("rows", sql, rows.result());
        oracle.assertSameAsDuckDb("partial", sql, partial.result());
        final double before = probeExchange(rows);
        final double after = probeExchange(partial);
        System.out.printf("bucket max/mean of the o_custkey group-by on 3x2, skew 1.5: rows %.3f, partial %.3f%n",
                before, after);
        assertThat(after).isLessThan(before);
    }

    /** Rows per bucket, max over mean, of the exchange that shuffles the orders by o_custkey. */
    private static double probeExchange(final Session.Execution run) {
        for (final QueryStats.ExchangeStats e : run.stats().exchanges()) {
            if (e.mode().equals("TO_OWNER") && e.keys().equals(List.of("o_custkey"))) {
                return BenchRunner.bucketMaxOverMean(e);
            }
        }
        throw new AssertionError("no exchange by o_custkey in " + run.stats().exchanges());
    }

    @Test
    void everyTpchQueryUnderAForcedShuffleAnswersAsDuckDbWithHeavyKeysActive() throws Exception {
        int perKeyJoins = 0;
        for (final Strategy strategy : List.of(Strategy.SHUFFLE_RANGE, Strategy.SHUFFLE_HASH)) {
            for (int q = 1; q <= TpchSql.COUNT; q++) {
                final String sql = TpchSql.text(q);
                perKeyJoins += decide(sql, strategy, true).heavyKeys().size();
                final Session.Execution run = session.execute("q" + q, planner.plan(sql).plan(), config(strategy, true));
                oracle.assertSameRowsAsDuckDb("q" + q, sql, run.result());
            }
        }
        System.out.println("joins dispatching heavy keys apart over 22 queries x 2 strategies: " + perKeyJoins);
        assertThat(perKeyJoins).isGreaterThan(0);
    }
}
