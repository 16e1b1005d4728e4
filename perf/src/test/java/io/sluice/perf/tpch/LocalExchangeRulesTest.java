package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.plan.LocalExchangeRule.GeneralRule.AFTER_EXCHANGE_OR_STORAGE_SCAN;
import static io.sluice.engine.plan.LocalExchangeRule.GeneralRule.AFTER_PLAIN_SCAN;
import static io.sluice.engine.plan.LocalExchangeRule.GeneralRule.ALREADY_SATISFIED;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.explain.ExplainPlan;
import io.sluice.dispatch.explain.Explainer;
import io.sluice.dispatch.explain.PlanningExchanges;
import io.sluice.dispatch.explain.RecordingExchanges;
import io.sluice.engine.exec.HashJoinBuild;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.ShuffleExchange;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.exec.WindowFrame;
import io.sluice.engine.exec.WindowFunction;
import io.sluice.engine.exec.WindowFunctionType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.plan.LocalExchange;
import io.sluice.engine.plan.LocalExchangeRule;
import io.sluice.engine.plan.LocalExchangeRule.GeneralRule;
import io.sluice.engine.plan.LocalExchangeType;
import io.sluice.engine.plan.PhysicalPlanner;
import io.sluice.engine.plan.PipelineCompiler;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seed 000's local-exchange rules, row by row: for each row of the per-operator tables a plan over SF 0.01
 * TPC-H that the row applies to, compiled on one process (1x2) or for a CN of a cluster (3x2), and the
 * local exchange decided for each input, with the general rule that overrode the row where one did. Then,
 * over every TPC-H query and strategy, the decisions are what the compiler built: in one process one
 * shuffle between the cores per HASH_SHUFFLE or BUCKET_HASH_SHUFFLE left standing, in a cluster none (the
 * exchanges between CNs bucket the rows) and one broadcast exchange per PASS_TO_ONE.
 */
class LocalExchangeRulesTest {
    @TempDir
    static Path dir;

    private static TpchOracle oracle;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
    }

    @AfterAll
    static void close() throws Exception {
        if (oracle != null) {
            oracle.close();
        }
    }

    private static StrategyConfig config(final Strategy strategy) {
        return StrategyConfig.defaults().withStrategy(strategy).withThresholds(1_000, 1_000);
    }

    private static PipelineCompiler.Compiled compile(final Plan plan, final String topology, final Strategy strategy) {
        return compile(plan, topology, strategy, new RecordingExchanges(new PlanningExchanges()));
    }

    private static PipelineCompiler.Compiled compile(final Plan plan, final String topology, final Strategy strategy,
                                                     final RecordingExchanges cluster) {
        final Topology shape = Topology.parse(topology);
        final PipelineCompiler compiler = shape.cnCount() == 1
                ? new PipelineCompiler(oracle.catalog(), config(strategy), shape.coresPerCn())
                : new PipelineCompiler(oracle.catalog(), config(strategy), shape, 1, cluster);
        return compiler.compile(PhysicalPlanner.plan(plan, config(strategy), oracle.catalog(), shape,
                shape.cnCount() != 1));
    }

    private static final Plan ORDERS = Plan.scan("orders", "o_orderkey", "o_custkey", "o_orderstatus");
    private static final Plan CUSTOMER = Plan.scan("customer", "c_custkey", "c_nationkey");
    private static final Plan LINEITEM = Plan.scan("lineitem", "l_orderkey", "l_quantity");
    private static final Plan ORDERS_OF_CUSTOMERS = ORDERS.join(JoinType.INNER, CUSTOMER, List.of("o_custkey"),
            List.of("c_custkey"));
    private static final Plan BY_ORDER = LINEITEM.aggregate(Plan.groupBy("l_orderkey"),
            Plan.sum(col("l_quantity"), "quantity"));

    /** An expected decision: the rule, the input, the type and the general rule (null: the row's type stands). */
    private record Expected(LocalExchangeRule rule, String input, LocalExchangeType type, GeneralRule general) {
    }

    private static Expected at(final LocalExchangeRule rule, final String input, final LocalExchangeType type,
                               final GeneralRule general) {
        return new Expected(rule, input, type, general);
    }

    static Stream<Arguments> rows() {
        final Plan late = Plan.scan("lineitem", "l_orderkey", "l_shipdate")
                .filter(Expr.ge(col("l_shipdate"), Expr.date("1996-01-01")))
                .aggregate(Plan.groupBy("l_orderkey"), Plan.count("late"))
                .project(new io.sluice.engine.expr.NamedExpr("k", col("l_orderkey")),
                        new io.sluice.engine.expr.NamedExpr("late", col("late")));
        final Plan twoGroups = BY_ORDER.join(JoinType.INNER, late, List.of("l_orderkey"), List.of("k"));
        final Plan union = Plan.scan("orders", "o_custkey").unionAll(Plan.scan("customer", "c_custkey"))
                .aggregate(Plan.groupBy("o_custkey"));
        return Stream.of(
                Arguments.of("hash join 1: broadcast", ORDERS_OF_CUSTOMERS, "3x2", Strategy.BROADCAST, List.of(
                        at(LocalExchangeRule.HASH_JOIN_BROADCAST, "build", LocalExchangeType.PASS_TO_ONE, null),
                        at(LocalExchangeRule.HASH_JOIN_BROADCAST, "probe", LocalExchangeType.PASSTHROUGH,
                                AFTER_PLAIN_SCAN))),
                Arguments.of("hash join 2: null-aware anti", ORDERS_OF_CUSTOMERS.join(JoinType.NULL_AWARE_ANTI,
                                Plan.scan("nation", "n_nationkey"), List.of("c_nationkey"), List.of("n_nationkey")),
                        "1x2", Strategy.BROADCAST, List.of(
                                at(LocalExchangeRule.HASH_JOIN_NULL_AWARE_ANTI, "probe", LocalExchangeType.NOOP, null))),
                Arguments.of("hash join 3: bucket shuffle (PKEY), one process", twoGroupsOfTwoTables(), "1x2",
                        Strategy.AUTO, List.of(
                                at(LocalExchangeRule.HASH_JOIN_BUCKET_SHUFFLE, "probe", LocalExchangeType.NOOP,
                                        ALREADY_SATISFIED),
                                at(LocalExchangeRule.HASH_JOIN_BUCKET_SHUFFLE, "build",
                                        LocalExchangeType.BUCKET_HASH_SHUFFLE, null))),
                Arguments.of("hash join 3: bucket shuffle (PKEY), cluster", twoGroupsOfTwoTables(), "3x2",
                        Strategy.AUTO, List.of(
                                at(LocalExchangeRule.HASH_JOIN_BUCKET_SHUFFLE, "probe", LocalExchangeType.NOOP,
                                        ALREADY_SATISFIED),
                                at(LocalExchangeRule.HASH_JOIN_BUCKET_SHUFFLE, "build", LocalExchangeType.NOOP,
                                        AFTER_EXCHANGE_OR_STORAGE_SCAN))),
                Arguments.of("hash join 4: colocate", LINEITEM.join(JoinType.INNER, ORDERS, List.of("l_orderkey"),
                        List.of("o_orderkey")), "3x2", Strategy.COLOCATE, List.of(
                                at(LocalExchangeRule.HASH_JOIN_COLOCATE, "probe", LocalExchangeType.NOOP,
                                        AFTER_EXCHANGE_OR_STORAGE_SCAN),
                                at(LocalExchangeRule.HASH_JOIN_COLOCATE, "build", LocalExchangeType.NOOP,
                                        AFTER_EXCHANGE_OR_STORAGE_SCAN))),
                Arguments.of("hash join 4: colocate, both sides already bucketed alike", twoGroups, "3x2",
                        Strategy.AUTO, List.of(
                                at(LocalExchangeRule.HASH_JOIN_COLOCATE, "probe", LocalExchangeType.NOOP,
                                        ALREADY_SATISFIED),
                                at(LocalExchangeRule.HASH_JOIN_COLOCATE, "build", LocalExchangeType.NOOP,
                                        ALREADY_SATISFIED))),
                Arguments.of("hash join 5: other, one process", ORDERS_OF_CUSTOMERS, "1x2", Strategy.SHUFFLE_HASH,
                        List.of(at(LocalExchangeRule.HASH_JOIN_OTHER, "probe", LocalExchangeType.HASH_SHUFFLE, null),
                                at(LocalExchangeRule.HASH_JOIN_OTHER, "build", LocalExchangeType.HASH_SHUFFLE, null))),
                Arguments.of("hash join 5: other, cluster", ORDERS_OF_CUSTOMERS, "3x2", Strategy.SHUFFLE_HASH,
                        List.of(at(LocalExchangeRule.HASH_JOIN_OTHER, "probe", LocalExchangeType.NOOP,
                                        AFTER_EXCHANGE_OR_STORAGE_SCAN),
                                at(LocalExchangeRule.HASH_JOIN_OTHER, "build", LocalExchangeType.NOOP,
                                        AFTER_EXCHANGE_OR_STORAGE_SCAN))),
                Arguments.of("aggregation 1: colocate agg", BY_ORDER, "3x2", Strategy.AUTO, List.of(
                        at(LocalExchangeRule.AGG_COLOCATE, "input", LocalExchangeType.NOOP,
                                AFTER_EXCHANGE_OR_STORAGE_SCAN))),
                Arguments.of("aggregation 2: streaming agg", ORDERS_OF_CUSTOMERS.aggregate(
                        Plan.groupBy("o_orderstatus"), Plan.count("n")), "1x2", Strategy.BROADCAST, List.of(
                                at(LocalExchangeRule.AGG_STREAMING, "input", LocalExchangeType.NOOP, null))),
                Arguments.of("aggregation 3: distinct streaming agg", Plan.scan("partsupp", "ps_partkey",
                        "ps_suppkey").aggregate(Plan.groupBy("ps_partkey"),
                        Plan.countDistinct(col("ps_suppkey"), "suppliers")), "1x2", Strategy.SHUFFLE_HASH, List.of(
                                at(LocalExchangeRule.AGG_DISTINCT_STREAMING, "input", LocalExchangeType.HASH_SHUFFLE,
                                        null))),
                Arguments.of("aggregation 4: blocking agg without keys", LINEITEM.aggregate(Plan.noKeys(),
                        Plan.count("n")), "3x2", Strategy.AUTO, List.of(
                                at(LocalExchangeRule.AGG_BLOCKING_NO_KEYS, "input", LocalExchangeType.PASSTHROUGH,
                                        AFTER_PLAIN_SCAN))),
                Arguments.of("aggregation 5: blocking agg with keys", ORDERS.aggregate(Plan.groupBy("o_custkey"),
                        Plan.count("n")), "1x2", Strategy.SHUFFLE_HASH, List.of(
                                at(LocalExchangeRule.AGG_BLOCKING_KEYS, "input", LocalExchangeType.HASH_SHUFFLE, null))),
                Arguments.of("sort 1: partial sort, merged", ORDERS_OF_CUSTOMERS.orderBy(SortKey.asc("o_orderkey")),
                        "3x2", Strategy.BROADCAST, List.of(
                                at(LocalExchangeRule.SORT_PARTIAL, "input", LocalExchangeType.NOOP,
                                        ALREADY_SATISFIED))),
                Arguments.of("sort 2: other", ORDERS_OF_CUSTOMERS.orderBy(SortKey.asc("o_orderkey")), "1x2",
                        Strategy.BROADCAST, List.of(
                                at(LocalExchangeRule.SORT_OTHER, "input", LocalExchangeType.NOOP, null))),
                Arguments.of("set operation 2: other", union, "1x2", Strategy.SHUFFLE_HASH, List.of(
                        at(LocalExchangeRule.SET_OPERATION_OTHER, "input", LocalExchangeType.HASH_SHUFFLE, null))),
                Arguments.of("analytic 1: no partition by", ORDERS.window(List.of(), List.of(SortKey.asc("o_orderkey")),
                        WindowFunction.ranking(WindowFunctionType.ROW_NUMBER, "n")), "3x2", Strategy.AUTO, List.of(
                                at(LocalExchangeRule.ANALYTIC_NO_PARTITION, "input", LocalExchangeType.NOOP,
                                        ALREADY_SATISFIED))),
                Arguments.of("analytic 2: partition by, not colocate", ORDERS.window(List.of("o_custkey"), List.of(),
                        WindowFunction.aggregate(WindowFunctionType.COUNT_STAR, null, WindowFrame.PARTITION, "n")),
                        "1x2", Strategy.AUTO, List.of(
                                at(LocalExchangeRule.ANALYTIC_PARTITION, "input", LocalExchangeType.HASH_SHUFFLE, null))),
                Arguments.of("nested-loop join 5: other", ORDERS.nestedLoopJoin(JoinType.INNER, CUSTOMER,
                        Expr.lt(col("o_custkey"), col("c_custkey"))), "3x2", Strategy.AUTO, List.of(
                                at(LocalExchangeRule.NL_JOIN_OTHER, "build", LocalExchangeType.BROADCAST, null),
                                at(LocalExchangeRule.NL_JOIN_OTHER, "probe", LocalExchangeType.PASSTHROUGH,
                                        AFTER_PLAIN_SCAN))),
                Arguments.of("assert rows", ORDERS.filter(Expr.eq(col("o_orderkey"), Expr.lit(1)))
                        .assertOneRow(List.of(), "the order with key 1"), "1x2", Strategy.AUTO, List.of(
                                at(LocalExchangeRule.ASSERT_ROWS, "input", LocalExchangeType.PASSTHROUGH,
                                        AFTER_PLAIN_SCAN))));
    }

    /** Q18's shape: a group-by's buckets kept by the join above it, the other side repartitioned by them. */
    private static Plan twoGroupsOfTwoTables() {
        return BY_ORDER.filter(Expr.gt(col("quantity"), Expr.lit(100)))
                .join(JoinType.INNER, ORDERS_OF_CUSTOMERS, List.of("l_orderkey"), List.of("o_orderkey"));
    }

    @ParameterizedTest(name = "{0} on {2}")
    @MethodSource("rows")
    void eachRowOfTheSeedPlacesItsLocalExchanges(final String row, final Plan plan, final String topology,
                                                 final Strategy strategy, final List<Expected> expected) {
        final List<LocalExchange> decided = compile(plan, topology, strategy).localExchanges();
        for (final Expected e : expected) {
            assertThat(decided).as("%s: %s", row, decided)
                    .anySatisfy(d -> {
                        assertThat(d.rule()).isEqualTo(e.rule());
                        assertThat(d.input()).isEqualTo(e.input());
                        assertThat(d.type()).isEqualTo(e.type());
                        assertThat(d.general()).isEqualTo(e.general());
                    });
        }
    }

    @Test
    void theTablesAreTheSeeds() {
        assertThat(LocalExchangeRule.HASH_JOIN_BROADCAST.build()).isEqualTo(LocalExchangeType.PASS_TO_ONE);
        assertThat(LocalExchangeRule.HASH_JOIN_BROADCAST.input()).isEqualTo(LocalExchangeType.PASSTHROUGH);
        assertThat(LocalExchangeRule.NL_JOIN_OTHER.build()).isEqualTo(LocalExchangeType.BROADCAST);
        assertThat(LocalExchangeRule.NL_JOIN_OTHER.input()).isEqualTo(LocalExchangeType.ADAPTIVE_PASSTHROUGH);
        assertThat(LocalExchangeRule.SET_OPERATION_COLOCATE.input()).isEqualTo(LocalExchangeType.BUCKET_HASH_SHUFFLE);
        assertThat(LocalExchangeRule.values()).extracting(LocalExchangeRule::operator).containsOnly("hash join",
                "aggregation", "analytic", "sort", "set operation", "nested-loop join", "assert rows");
        assertThat(LocalExchangeType.values()).hasSize(7);
    }

    static Stream<Arguments> queriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String topology : List.of("1x2", "3x2")) {
            for (int q = 1; q <= 22; q++) {
                for (final Strategy strategy : Strategy.values()) {
                    cases.add(Arguments.of(topology, q, strategy));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "q{1} {2} on {0}")
    @MethodSource("queriesAndStrategies")
    void theDecisionsAreWhatTheCompilerBuilds(final String topology, final int q, final Strategy strategy) {
        final Plan plan = new SqlPlanner(oracle.catalog(), oracle.store().tableNames()).plan(TpchSql.text(q)).plan();
        final RecordingExchanges cluster = new RecordingExchanges(new PlanningExchanges());
        final PipelineCompiler.Compiled compiled = compile(plan, topology, strategy, cluster);
        final long shuffles = compiled.localExchanges().stream().filter(d -> d.type()
                == LocalExchangeType.HASH_SHUFFLE || d.type() == LocalExchangeType.BUCKET_HASH_SHUFFLE).count();
        final long passToOne = compiled.localExchanges().stream()
                .filter(d -> d.type() == LocalExchangeType.PASS_TO_ONE).count();
        if (Topology.parse(topology).cnCount() == 1) {
            assertThat(compiled.pipelines().stream().filter(p -> p.sink() instanceof ShuffleExchange).count())
                    .as("shuffles between the cores").isEqualTo(shuffles);
        } else {
            assertThat(shuffles).as("shuffles between the cores on a cluster").isZero();
            // Each broadcast build is received once per CN (broadcast, or gathered for a probe on the
            // coordinator alone) into the one table its cores share.
            final long sharedBuilds = compiled.localExchanges().stream().filter(d -> d.input().equals("build")
                    && (d.rule() == LocalExchangeRule.HASH_JOIN_BROADCAST
                    || d.rule() == LocalExchangeRule.HASH_JOIN_NULL_AWARE_ANTI)).count();
            assertThat(compiled.pipelines().stream().filter(p -> p.sink() instanceof HashJoinBuild).count())
                    .as("shared join tables").isEqualTo(sharedBuilds);
            final long nestedLoopBuilds = compiled.localExchanges().stream()
                    .filter(d -> d.type() == LocalExchangeType.BROADCAST).count();
            assertThat(cluster.recorded().stream().filter(e -> e.mode() == DispatchMode.BROADCAST).count())
                    .as("broadcast exchanges").isLessThanOrEqualTo(passToOne + nestedLoopBuilds);
        }
    }

    private static long lineitemScans(final ExplainPlan plan) {
        return plan.operators().stream().filter(o -> o.operator().startsWith("TABLE SCAN") && "lineitem".equals(o.name()))
                .count();
    }

    /**
     * Q15 reads its WITH query (revenue) twice: in one process the group-by is compiled once and its groups
     * read by both (one scan of lineitem), on a cluster each is grouped where its rows are (two); the answer is
     * DuckDB's either way.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Strategy.class)
    void aWithQueryReadTwiceIsGroupedOnceInOneProcess(final Strategy strategy) throws Exception {
        final TpchSqlQuery q15 = new TpchSqlQuery(15, oracle.store());
        final StrategyConfig config = StrategyConfig.defaults().withStrategy(strategy);
        assertThat(lineitemScans(Explainer.plan("q15", q15.plan(), config, new Topology(1, 2), oracle.catalog(), false)))
                .isEqualTo(1);
        assertThat(lineitemScans(Explainer.plan("q15", q15.plan(), config, new Topology(3, 2), oracle.catalog(), true)))
                .isEqualTo(2);
        try (QueryRunner runner = new QueryRunner(oracle.catalog(), 2, config)) {
            oracle.assertSameAsDuckDb(q15, runner.execute(q15.plan()).result());
        }
    }
}
