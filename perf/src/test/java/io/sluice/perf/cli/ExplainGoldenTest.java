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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * EXPLAIN without ANALYZE of TPC-H q1, q3 and q18 over SF 0.01, on one process of 2 cores (1x2, as
 * {@code sluice query --cores 2 --explain} prints it) and on a cluster of 3 CNs x 2 cores (3x2, as
 * {@code --cn 3 --cores 2 --explain}), is exactly the text in {@code src/test/resources/explain/}.
 * The plan only, so no timings and no host names: any change to the plan or its rendering shows here.
 * And every TPC-H query under every strategy explains as a well-formed tree.
 *
 * <p>To regenerate after an intended change, run this test with {@code -Dsluice.explain.regenerate=true}
 * (it then writes the files under {@code perf/src/test/resources/explain/} and passes) and review the diff.
 */
class ExplainGoldenTest {
    private static final boolean REGENERATE = Boolean.getBoolean("sluice.explain.regenerate");

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
        return Stream.of(1, 3, 18).flatMap(q -> Stream.of(Arguments.of(q, 1), Arguments.of(q, 3)));
    }

    @ParameterizedTest(name = "q{0} on {1}x2")
    @MethodSource("cases")
    void thePlanIsTheGoldenFile(final int query, final int cns) throws Exception {
        final TpchSqlQuery q = new TpchSqlQuery(query, oracle.store());
        final String actual;
        if (cns == 1) {
            try (QueryTarget local = QueryTarget.local(oracle.catalog(), 2, StrategyConfig.defaults())) {
                actual = local.explain(q.name(), q.plan()).render();
            }
        } else {
            final ExplainPlan plan = Explainer.plan(q.name(), q.plan(), StrategyConfig.defaults(), new Topology(cns, 2),
                    oracle.catalog(), true);
            actual = plan.render();
        }
        final String file = "q" + query + "-" + cns + "x2.txt";
        if (REGENERATE) {
            final Path out = Path.of("src", "test", "resources", "explain", file);
            Files.createDirectories(out.getParent());
            Files.writeString(out, actual, StandardCharsets.UTF_8);
            return;
        }
        try (var in = ExplainGoldenTest.class.getResourceAsStream("/explain/" + file)) {
            assertThat(in).as("golden file explain/" + file + ": generate it with -Dsluice.explain.regenerate=true")
                    .isNotNull();
            assertThat(actual).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    static Stream<Arguments> everyQuery() {
        return IntStream.rangeClosed(1, TpchSql.COUNT).boxed().flatMap(q -> Stream.of(Strategy.values())
                .flatMap(s -> Stream.of(Arguments.of(q, s, 1), Arguments.of(q, s, 3))));
    }

    /**
     * Every TPC-H query from its text, under every strategy, on 1x2 and 3x2, explains as a tree (pre-order
     * ids, depths, exchanges paired, fragments cut at them) with one EXCHANGE OUT per exchange the compiler
     * asked for, numbered 0..n-1, and no exchange estimated to cross CNs on one CN.
     */
    @ParameterizedTest(name = "q{0} {1} on {2}x2")
    @MethodSource("everyQuery")
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
