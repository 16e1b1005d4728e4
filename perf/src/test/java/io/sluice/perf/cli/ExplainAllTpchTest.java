package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.explain.ExplainOperator;
import io.sluice.dispatch.explain.ExplainPlan;
import io.sluice.dispatch.explain.Explainer;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.perf.tpch.TpchSqlQuery;
import io.sluice.shuffle.Topology;
import java.nio.file.Path;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every TPC-H query from its text, under every strategy, on 1x2 and 3x2 over SF 0.01, explains as a
 * tree (pre-order ids, depths, exchanges paired, fragments cut at them) with one EXCHANGE OUT per
 * exchange the compiler asked for, numbered 0..n-1, and no exchange estimated to cross CNs on one CN.
 */
class ExplainAllTpchTest {
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

    static Stream<Arguments> cases() {
        return IntStream.rangeClosed(1, TpchSql.COUNT).boxed().flatMap(q -> Stream.of(Strategy.values())
                .flatMap(s -> Stream.of(Arguments.of(q, s, 1), Arguments.of(q, s, 3))));
    }

    @ParameterizedTest(name = "q{0} {1} on {2}x2")
    @MethodSource("cases")
    void explainsAsATree(final int number, final Strategy strategy, final int cns) {
        final TpchSqlQuery q = new TpchSqlQuery(number, oracle.store());
        final ExplainPlan plan = Explainer.plan(q.name(), q.plan(), StrategyConfig.defaults().withStrategy(strategy),
                new Topology(cns, 2), oracle.catalog(), cns > 1);
        ExplainTrees.assertTree(plan);
        int id = 0;
        for (final ExplainOperator out : plan.exchangeOuts()) {
            assertThat(out.exchange().id()).isEqualTo(id++);
            if (cns == 1) {
                assertThat(out.exchange().estCrossCnRows()).isZero();
            }
        }
        assertThat(plan.render()).isNotEmpty();
    }
}
