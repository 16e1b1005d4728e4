package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.explain.ExplainPlan;
import io.sluice.dispatch.explain.Explainer;
import io.sluice.engine.plan.QueryRunner;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Q15 reads its WITH query (revenue) twice: in one process the group-by is computed once and its
 * groups read by both (one scan of lineitem in the compiled plan); on a cluster each is computed
 * where its rows are (two). The answer is DuckDB's either way, under every strategy.
 */
class SharedGroupByTest {
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

    private static long lineitemScans(final ExplainPlan plan) {
        return plan.operators().stream().filter(o -> o.operator().startsWith("TABLE SCAN") && "lineitem".equals(o.name()))
                .count();
    }

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
