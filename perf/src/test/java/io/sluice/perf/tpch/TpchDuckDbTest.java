package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Distribution;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.QueryRunner.Execution;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.operator.ShuffleOptions;
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
 * Every registered query, run by Sluice under every {@link Strategy} with 1, 2, 4 and 7 workers
 * and by DuckDB over the same SF 0.01 rows, must return the same column names and the same rows in the same order: exact for
 * integers, decimals, dates and strings, within 1e-9 relative for doubles.
 */
class TpchDuckDbTest {
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

    static Stream<Arguments> queriesStrategiesAndCores() {
        final List<Arguments> cases = new ArrayList<>();
        for (final Query q : Queries.all()) {
            for (final Strategy strategy : Strategy.values()) {
                for (final int cores : new int[] {1, 2, 4, 7}) {
                    cases.add(Arguments.of(q.name(), strategy, cores));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} on {2} cores")
    @MethodSource("queriesStrategiesAndCores")
    void sameResultAsDuckDb(final String name, final Strategy strategy, final int cores) throws Exception {
        final Query query = TpchOracle.query(name);
        final Execution execution;
        try (QueryRunner runner = new QueryRunner(oracle.catalog(), cores, StrategyConfig.defaults().withStrategy(strategy))) {
            execution = runner.execute(query.plan());
        }
        if (strategy != Strategy.AUTO) {
            final boolean broadcast = strategy == Strategy.BROADCAST;
            for (final Decision d : execution.decisions()) {
                // Hybrid forces joins only; its group-bys are chosen as under auto.
                final boolean chosen = strategy == Strategy.HYBRID && d.operator().startsWith("group by");
                final boolean merges = d.reason().contains("no group keys") || d.reason().contains("expressions")
                        || d.reason().startsWith("colocate: the input is not stored by");
                if (!merges && !chosen) {
                    assertThat(d.choice().isShuffle()).as("%s under %s: %s", name, strategy, d).isEqualTo(!broadcast);
                }
            }
        }
        oracle.assertSameAsDuckDb(query, execution.result());
    }

    @Test
    void autoShufflesALargeBuildSideAndBroadcastsASmallOne() throws Exception {
        final Execution small = runAuto("join_lo", 1_000_000, 1_000_000);
        assertThat(decision(small, "join")).isEqualTo(Distribution.BROADCAST);
        final Execution large = runAuto("join_lo", 1_000, 1_000_000);
        assertThat(decision(large, "join"))
                .as("orders (15000 rows) >= 1000, probe side a scan of lineitem stored by l_orderkey")
                .isEqualTo(Distribution.COLOCATE);
    }

    @Test
    void autoShufflesAJoinItCannotColocateOnlyForALargeBuildSide() throws Exception {
        // part (2000 rows at SF 0.01) is over the colocated threshold but lineitem is not stored by l_partkey.
        final Execution moving = runAuto(new StrategyConfig(Strategy.AUTO, 1_000, 1_000_000, 1_000_000,
                ShuffleOptions.defaults()), "join_lp");
        assertThat(decision(moving, "join")).isEqualTo(Distribution.BROADCAST);
        final Execution large = runAuto(new StrategyConfig(Strategy.AUTO, 1_000, 1_000, 1_000_000,
                ShuffleOptions.defaults()), "join_lp");
        assertThat(decision(large, "join")).isIn(Distribution.SHUFFLE_RANGE, Distribution.SHUFFLE_HASH);
    }

    @Test
    void autoShufflesAGroupByOnlyWithManyDistinctKeys() throws Exception {
        final Execution few = runAuto("grp_orderkey", 1_000_000, 1_000_000);
        assertThat(decision(few, "group by [l_orderkey]")).isEqualTo(Distribution.MERGE);
        final Execution many = runAuto("grp_orderkey", 1_000_000, 1_000);
        assertThat(decision(many, "group by [l_orderkey]")).isEqualTo(Distribution.COLOCATE);
        assertThat(decision(many, "group by []")).as("the global aggregate").isEqualTo(Distribution.MERGE);
    }

    @Test
    void aGroupByOnTheJoinKeyReusesTheJoinsShuffle() throws Exception {
        final Execution q18 = runAuto("q18", 1_000, 1_000);
        assertThat(decision(q18, "group by [c_name, c_custkey, o_orderkey")).isEqualTo(Distribution.REUSE_SHUFFLE);
    }

    /** The choice for the one join or group-by whose description starts with a prefix. */
    private static Distribution decision(final Execution execution, final String prefix) {
        final List<Decision> matching = execution.decisions().stream()
                .filter(d -> d.operator().startsWith(prefix)).toList();
        assertThat(matching).as("decisions starting with '%s' in %s", prefix, execution.decisions()).hasSize(1);
        return matching.get(0).choice();
    }

    private static Execution runAuto(final String name, final long joinBuildRows, final long groupDistinct)
            throws Exception {
        return runAuto(StrategyConfig.defaults().withStrategy(Strategy.AUTO).withThresholds(joinBuildRows, groupDistinct),
                name);
    }

    private static Execution runAuto(final StrategyConfig config, final String name) throws Exception {
        final Query query = TpchOracle.query(name);
        final Execution execution;
        try (QueryRunner runner = new QueryRunner(oracle.catalog(), 4, config)) {
            execution = runner.execute(query.plan());
        }
        oracle.assertSameAsDuckDb(query, execution.result());
        return execution;
    }
}
