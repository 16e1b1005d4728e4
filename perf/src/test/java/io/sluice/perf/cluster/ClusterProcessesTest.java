package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.ExplainText;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.CnUsage;
import io.sluice.dispatch.control.MemberState;
import io.sluice.engine.exec.Sort;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.cli.Cli;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.shuffle.Topology;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A coordinator and three CN processes on loopback, each a JVM with its own Aeron media driver, talking
 * UDP: every registered query under every strategy returns DuckDB's answer over the same SF 0.01 rows,
 * colocation keeps almost every row on its CN, and {@code cluster status} sees every CN alive.
 */
class ClusterProcessesTest {
    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static ProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        fixture = OracleCluster.onLoopback(dir, 0.01, 3, 2, "-Xmx384m");
        oracle = fixture.oracle();
        cluster = fixture.cluster();
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    @ParameterizedTest(name = "{0} {1} on 3 CN processes")
    @MethodSource("io.sluice.perf.tpch.TpchOracle#queriesAndStrategies")
    void everyQueryUnderEveryStrategyEqualsDuckDb(final String name, final Strategy strategy) throws Exception {
        final Query query = TpchOracle.query(name);
        final Session.Execution execution = run(query, strategy);
        oracle.assertSameAsDuckDb(query, execution.result());
        assertThat(execution.stats().topology()).isEqualTo(new Topology(3, 2));
        assertThat(execution.usage()).extracting(CnUsage::name).containsExactlyInAnyOrder("cn0", "cn1", "cn2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"q4", "join_lo", "grp_orderkey"})
    void colocateMovesAtMostOnePercentOfWhatAHashShuffleMovesBetweenProcesses(final String name) throws Exception {
        final Query query = TpchOracle.query(name);
        final Session.Execution hash = run(query, Strategy.SHUFFLE_HASH);
        final Session.Execution colocate = run(query, Strategy.COLOCATE);
        oracle.assertSameAsDuckDb(query, colocate.result());
        final long hashRows = hash.stats().rowsRemote();
        assertThat(hashRows).as("rows a hash shuffle moves between processes in %s", name).isGreaterThan(5_000);
        assertThat(hash.stats().bytesRemote()).as("bytes over UDP").isPositive();
        assertThat(colocate.stats().rowsRemote()).as("rows colocate moves in %s vs %d for shuffle-hash", name, hashRows)
                .isLessThanOrEqualTo(hashRows / 100);
    }

    @Test
    void clusterStatusSeesEveryCnAliveWithItsCoresAndEndpoint() {
        final Cli.Result table = Cli.run("cluster", "status", "--coordinator", cluster.endpoint().toString());
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains("cn0", "cn1", "cn2", "alive", "3 CNs in the cluster of");
        final Cli.Result json = Cli.run("cluster", "status", "--coordinator", cluster.endpoint().toString(), "--json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out()).contains("\"state\": \"alive\"", "\"cores\": 2", "\"endpoint\": \"127.0.0.1:");
        assertThat(cluster.session().status()).hasSize(3).allSatisfy(m -> {
            assertThat(m.state()).isEqualTo(MemberState.ALIVE);
            assertThat(m.sinceHeardMillis()).isLessThan(3_000);
            assertThat(m.rssBytes()).isPositive();
        });
    }

    @Test
    void aQueryAskingForMoreCnsThanAreAliveIsAClearError() throws Exception {
        final Cli.Result r = Cli.run("query", "--coordinator", cluster.endpoint().toString(), "--tpch", "6",
                "--cn", "5");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("asks for 5 CNs but 3 are alive (", "cn0", "cn1", "cn2", "ask for at most 3 with --cn");
        final Cli.Result ok = Cli.run("query", "--coordinator", cluster.endpoint().toString(), "--tpch", "6",
                "--cn", "2", "--cores", "1", "--format", "csv");
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        assertThat(ok.out().lines()).as(ok.toString()).hasSize(2).first().isEqualTo("revenue");
    }

    @Test
    void anOrderBySortsOnEveryCnProcessAndTheCoordinatorMergesTheRuns() throws Exception {
        cluster.session().shape(3, 2);
        final String sql = "SELECT l_orderkey, l_linenumber, l_extendedprice, l_shipmode FROM lineitem"
                + " ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber";
        final Plan all = Plan.scan("lineitem", "l_orderkey", "l_linenumber", "l_extendedprice", "l_shipmode")
                .orderBy(SortKey.desc("l_extendedprice"), SortKey.asc("l_orderkey"), SortKey.asc("l_linenumber"));
        for (final long limit : new long[] {Sort.NO_LIMIT, 40}) {
            final Plan plan = limit == Sort.NO_LIMIT ? all : all.limit(limit);
            final Session.Execution e = cluster.session().execute("order by", plan, StrategyConfig.defaults(), 0,
                    ExplainText.RENDERED);
            oracle.assertSameAsDuckDb("order by limit " + limit, limit == Sort.NO_LIMIT ? sql : sql + " LIMIT " + limit,
                    e.result());
            assertThat(e.explain()).as(e.explain()).contains("EXCHANGE IN MERGE SORT DISTR",
                    "merged " + e.result().rowCount() + " rows of").doesNotContain("=> sort [");
        }
    }

    @Test
    void aCnProcessShipsThePlansExplainOnlyToAClientThatAskedForIt() {
        cluster.session().shape(3, 2);
        final Plan plan = Plan.scan("lineitem", "l_orderkey").orderBy(SortKey.desc("l_orderkey")).limit(10);
        final Session.Execution plain = cluster.session().execute("unexplained", plan, StrategyConfig.defaults());
        final Session.Execution explained = cluster.session().execute("explained", plan, StrategyConfig.defaults(), 0,
                ExplainText.RENDERED);
        assertThat(plain.explain()).as("no EXPLAIN rendered nor shipped for a query that did not ask").isNull();
        assertThat(explained.explain()).as("EXPLAIN of a query that asked").contains("Distributed plan of explained",
                "EXCHANGE IN MERGE SORT DISTR");
        assertThat(plain.result().rows()).isEqualTo(explained.result().rows());
        assertThat(plain.decisions()).as("the decisions go with every answer (bench results name them)")
                .isEqualTo(explained.decisions());
    }

    private static Session.Execution run(final Query query, final Strategy strategy) {
        final Session session = cluster.session();
        session.shape(3, 2);
        return session.execute(query.name(), query.plan(), StrategyConfig.defaults().withStrategy(strategy));
    }
}
