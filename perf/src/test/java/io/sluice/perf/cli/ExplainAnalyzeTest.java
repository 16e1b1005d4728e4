package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.explain.ExplainOperator;
import io.sluice.dispatch.explain.ExplainPlan;
import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.perf.tpch.TpchSqlQuery;
import io.sluice.shuffle.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * EXPLAIN ANALYZE of TPC-H q3 and q18 over SF 0.01 on an embedded cluster of 3 CNs x 2 cores: the rows
 * and bytes each exchange reports are --stats-json's numbers for the same run, the rows are DuckDB's,
 * the root's actual rows are the result's, an exchange estimated to move no row across CNs moved none,
 * a scan never returns more rows than its zonemap upper bound; and the operator table's ids, depths and
 * fragments are a tree as seed 001 numbers it (pre-order, a child one level deeper, every EXCHANGE IN over
 * the EXCHANGE OUT of the same exchange, a new fragment under each exchange).
 */
class ExplainAnalyzeTest {
    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static QueryTarget cluster;

    @BeforeAll
    static void start() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        cluster = QueryTarget.embedded(oracle.store(), new Topology(3, 2), Session.Network.IPC,
                StrategyConfig.defaults(), 0);
    }

    @AfterAll
    static void stop() {
        CloseHelper.closeAll(cluster, oracle);
    }

    @ParameterizedTest(name = "q{0}")
    @ValueSource(ints = {3, 18})
    @SuppressWarnings("unchecked")
    void eachExchangeOfAnalyzeMovedWhatStatsJsonSays(final int number) throws Exception {
        final TpchSqlQuery query = new TpchSqlQuery(number, oracle.store());
        final QueryTarget.Outcome outcome = cluster.analyze(query.name(), query.plan());
        oracle.assertSameAsDuckDb(query, outcome.result());
        final ExplainPlan plan = outcome.analyzed();
        assertThat(plan.analyzed()).isTrue();
        ExplainTrees.assertTree(plan);

        final Path json = dir.resolve("q" + number + ".json");
        Files.writeString(json, StatsJson.of(outcome.stats()));
        final Map<String, Object> stats = (Map<String, Object>) MiniJson.parse(Files.readString(json));
        final List<Map<String, Object>> exchanges = (List<Map<String, Object>>) stats.get("exchanges");
        final List<ExplainOperator> outs = plan.exchangeOuts();
        assertThat(outs).hasSameSizeAs(exchanges);
        for (final Map<String, Object> e : exchanges) {
            final ExplainOperator out = outs.get((int) number(e.get("id")));
            assertThat(out.exchange().mode()).isEqualTo(e.get("mode"));
            final ExplainOperator.Actual a = out.actual();
            assertThat(new long[] {a.rowsRemote(), a.bytesRemote(), a.rowsLocal(), a.bytesLocal()})
                    .as("exchange %s of q%d", e.get("id"), number)
                    .containsExactly(number(e.get("rows_remote")), number(e.get("bytes_remote")),
                            number(e.get("rows_local")), number(e.get("bytes_local")));
            if (!out.exchange().mode().equals("BROADCAST")) {
                assertThat(a.rows()).as("rows counted into exchange %s are the rows it delivered", e.get("id"))
                        .isEqualTo(a.rowsRemote() + a.rowsLocal());
            }
            if (out.exchange().estCrossCnRows() == 0) {
                assertThat(a.rowsRemote()).as("exchange %s was planned to keep its rows on their CN", e.get("id"))
                        .isZero();
            }
        }
        assertThat(plan.root().actual().rows()).isEqualTo(outcome.result().rowCount());
        for (final ExplainOperator o : plan.operators()) {
            if (o.operator().startsWith("TABLE SCAN")) {
                assertThat(o.actual().rows()).as("#%d %s", o.id(), o.name()).isLessThanOrEqualTo(o.estRows());
            }
        }
    }

    /**
     * Q18 from its text with low thresholds, so that its joins on the order key are PKEY: where EXPLAIN's
     * estimate of the rows into an exchange that crosses CNs is exact (no filter's selectivity in it), its
     * estimate of the rows crossing is what the run moved, within 5%; where it says none, none moved.
     */
    @org.junit.jupiter.api.Test
    void theRowsAPkeyPlanIsEstimatedToMoveAcrossCnsAreTheRowsItMoves() throws Exception {
        final TpchSqlQuery query = new TpchSqlQuery(18, oracle.store());
        try (QueryTarget pkey = QueryTarget.embedded(oracle.store(), new Topology(3, 2), Session.Network.IPC,
                StrategyConfig.defaults().withThresholds(1_000, 1_000), 0)) {
            final QueryTarget.Outcome outcome = pkey.analyze(query.name(), query.plan());
            oracle.assertSameAsDuckDb(query, outcome.result());
            assertThat(outcome.analyzed().decisions()).extracting(io.sluice.engine.plan.Decision::choice)
                    .contains(io.sluice.engine.plan.Distribution.PKEY);
            int compared = 0;
            for (final ExplainOperator out : outcome.analyzed().exchangeOuts()) {
                final long estimate = out.exchange().estCrossCnRows();
                final ExplainOperator.Actual a = out.actual();
                if (estimate == 0) {
                    assertThat(a.rowsRemote()).as("#%d planned to keep its rows on their CN", out.id()).isZero();
                } else if (out.estRows() == a.rows() && !out.exchange().mode().equals("GATHER")) {
                    assertThat((double) a.rowsRemote()).as("#%d %s rows across CNs", out.id(), out.exchange().mode())
                            .isCloseTo(estimate, org.assertj.core.data.Percentage.withPercentage(5));
                    compared++;
                }
            }
            assertThat(compared).as("exchanges whose input estimate was exact").isPositive();
        }
    }

    private static long number(final Object json) {
        return Long.parseLong(((MiniJson.Num) json).text());
    }
}
