package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.RuntimeFilterRouter;
import io.sluice.engine.exec.RuntimeFilterState;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.filter.FilterKind;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.QueryRunner.Execution;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
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
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runtime filters in one process over TPC-H SF 0.01: every query under every strategy gives DuckDB's
 * answer with filters off, local and global alike; a selective join on the probe table's sort key
 * skips blocks; a filter that rejects nothing turns itself off; a filter that comes late or never
 * changes no answer and hangs nothing.
 */
class RuntimeFilterTpchTest {
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

    static Stream<Arguments> queriesStrategiesAndModes() {
        final List<Arguments> cases = new ArrayList<>();
        for (final Query q : Queries.all()) {
            for (final Strategy strategy : Strategy.values()) {
                cases.add(Arguments.of(q.name(), strategy));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("queriesStrategiesAndModes")
    void everyModeGivesDuckDbsAnswer(final String name, final Strategy strategy) throws Exception {
        final Query query = TpchOracle.query(name);
        List<List<Object>> off = null;
        for (final RuntimeFilterMode mode : RuntimeFilterMode.values()) {
            final Execution e = run(query.plan(), StrategyConfig.defaults().withStrategy(strategy).withRuntimeFilters(mode), 3,
                    RuntimeFilterRouter.LOCAL);
            oracle.assertSameAsDuckDb(query, e.result());
            if (mode == RuntimeFilterMode.OFF) {
                assertThat(e.runtimeFilters()).as("no filters when off").isEmpty();
                off = e.result().rows();
            } else {
                assertThat(e.result().rows()).as("%s under %s", name, mode).isEqualTo(off);
                for (final RuntimeFilterStats s : e.runtimeFilterStats()) {
                    assertThat(s.probeRowsOut()).as("%s", s).isLessThanOrEqualTo(s.probeRowsIn());
                    assertThat(s.state()).as("%s", s).isNotIn(RuntimeFilterState.PENDING, RuntimeFilterState.NOT_ARRIVED);
                }
            }
        }
    }

    /** lineitem is stored by l_orderkey; the build keeps the orders of the first few keys. */
    private static Plan selectiveOnSortKey() {
        return Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey").filter(Expr.lt(col("o_orderkey"), Expr.lit(200))),
                        List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("n"), Plan.sum(col("l_quantity"), "q"));
    }

    @Test
    void aSelectiveJoinOnTheProbeSortKeySkipsBlocks() {
        for (final Strategy strategy : List.of(Strategy.BROADCAST, Strategy.SHUFFLE_HASH, Strategy.COLOCATE)) {
            final Execution off = run(selectiveOnSortKey(),
                    StrategyConfig.defaults().withStrategy(strategy).withRuntimeFilters(RuntimeFilterMode.OFF), 2,
                    RuntimeFilterRouter.LOCAL);
            final Execution on = run(selectiveOnSortKey(), StrategyConfig.defaults().withStrategy(strategy), 2,
                    RuntimeFilterRouter.LOCAL);
            assertThat(on.result().rows()).as("under %s", strategy).isEqualTo(off.result().rows());
            assertThat(on.runtimeFilterStats()).as("under %s", strategy).hasSize(1);
            final RuntimeFilterStats s = on.runtimeFilterStats().get(0);
            assertThat(s.probe()).containsExactly("l_orderkey");
            assertThat(s.kinds()).contains(FilterKind.MIN_MAX);
            assertThat(s.blocksSkipped()).as("%s under %s", s, strategy).isPositive();
        }
    }

    @Test
    void aFilterThatRejectsNothingTurnsItselfOff() {
        final Plan everyOrder = Plan.scan("lineitem", "l_orderkey", "l_quantity")
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey"), List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("n"));
        final Execution e = run(everyOrder, StrategyConfig.defaults().withStrategy(Strategy.BROADCAST), 1,
                RuntimeFilterRouter.LOCAL);
        assertThat(e.runtimeFilterStats()).hasSize(1);
        final RuntimeFilterStats s = e.runtimeFilterStats().get(0);
        assertThat(s.state()).as("%s", s).isEqualTo(RuntimeFilterState.DISABLED);
        assertThat(s.probeRowsIn()).as("rows tested before it turned off").isLessThan((Long) e.result().rows().get(0).get(0));
        final Execution selective = run(selectiveOnSortKey(), StrategyConfig.defaults().withStrategy(Strategy.BROADCAST),
                1, RuntimeFilterRouter.LOCAL);
        assertThat(selective.runtimeFilterStats().get(0).state()).isEqualTo(RuntimeFilterState.APPLIED);
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aLateFilterAndAFilterThatNeverComesChangeNoAnswer() throws Exception {
        final StrategyConfig noWait = StrategyConfig.defaults().withStrategy(Strategy.BROADCAST)
                .withRuntimeFilters(io.sluice.engine.filter.RuntimeFilterConfig.defaults().withWaitMillis(0));
        final List<Thread> deliveries = new ArrayList<>();
        // The build's filter goes out only once its probe scan has started without it.
        final RuntimeFilterRouter late = (handle, partials) -> {
            final Thread t = new Thread(() -> {
                final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
                while (handle.stats().state() != RuntimeFilterState.NOT_ARRIVED && System.nanoTime() < deadline) {
                    java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                }
                handle.deliver(partials);
            }, "late filter " + handle.id());
            deliveries.add(t);
            t.start();
        };
        final RuntimeFilterRouter never = (handle, partials) -> { };
        for (final String name : List.of("q5", "q9", "q3", "join_lo")) {
            final Query query = TpchOracle.query(name);
            final Execution lateRun = run(query.plan(), noWait, 2, late);
            for (final Thread t : deliveries) {
                t.join();
            }
            oracle.assertSameAsDuckDb(query, lateRun.result());
            final Execution neverRun = run(query.plan(), StrategyConfig.defaults().withStrategy(Strategy.BROADCAST)
                    .withRuntimeFilters(io.sluice.engine.filter.RuntimeFilterConfig.defaults().withWaitMillis(50)), 2,
                    never);
            oracle.assertSameAsDuckDb(query, neverRun.result());
            assertThat(neverRun.runtimeFilterStats()).as(name).isNotEmpty()
                    .allSatisfy(s -> assertThat(s.state()).isEqualTo(RuntimeFilterState.NOT_ARRIVED));
        }
    }

    private static Execution run(final Plan plan, final StrategyConfig config, final int cores,
                                 final RuntimeFilterRouter router) {
        try (QueryRunner runner = new QueryRunner(oracle.catalog(), cores, config, router)) {
            return runner.execute(plan);
        }
    }
}
