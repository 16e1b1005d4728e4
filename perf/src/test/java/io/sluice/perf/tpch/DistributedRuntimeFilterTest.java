package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.exec.RuntimeFilterState;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
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
 * Runtime filters on an embedded cluster of 3 CNs x 2 cores, batches and control messages crossing CNs
 * through Aeron: every query under every strategy gives DuckDB's answer with filters off, local and
 * global; global filters are gathered from every CN by the coordinator and reach every CN's probe scans,
 * and the rows they remove never cross CNs.
 */
class DistributedRuntimeFilterTest {
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

    static Stream<Arguments> queriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (final Query q : Queries.all()) {
            for (final Strategy strategy : Strategy.values()) {
                cases.add(Arguments.of(q.name(), strategy));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} on 3x2")
    @MethodSource("queriesAndStrategies")
    void everyModeGivesDuckDbsAnswerOnThreeCns(final String name, final Strategy strategy) throws Exception {
        final Query query = TpchOracle.query(name);
        Session.Execution off = null;
        for (final RuntimeFilterMode mode : RuntimeFilterMode.values()) {
            final Session.Execution e = session.execute(name, query.plan(),
                    StrategyConfig.defaults().withStrategy(strategy).withRuntimeFilters(mode));
            oracle.assertSameAsDuckDb(query, e.result());
            final List<RuntimeFilterStats> filters = e.stats().runtimeFilters();
            if (mode == RuntimeFilterMode.OFF) {
                assertThat(filters).isEmpty();
                off = e;
                continue;
            }
            for (final RuntimeFilterStats s : filters) {
                assertThat(s.probeRowsOut()).as("%s", s).isLessThanOrEqualTo(s.probeRowsIn());
                assertThat(s.state()).as("%s under %s", s, mode).isIn(RuntimeFilterState.APPLIED,
                        RuntimeFilterState.LATE, RuntimeFilterState.DISABLED);
                if (mode == RuntimeFilterMode.LOCAL) {
                    assertThat(s.scope()).isNotEqualTo(FilterScope.GLOBAL);
                }
            }
            assertThat(e.stats().rowsRemote()).as("%s rows across CNs with filters %s", name, mode)
                    .isLessThanOrEqualTo(off.stats().rowsRemote());
        }
    }

    @Test
    void aHashShuffledJoinsGlobalFilterIsMergedFromEveryCnAndKeepsRowsFromCrossing() throws Exception {
        final Query q5 = TpchOracle.query("q5");
        final StrategyConfig hash = StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH);
        final Session.Execution off = session.execute("q5", q5.plan(), hash.withRuntimeFilters(RuntimeFilterMode.OFF));
        final Session.Execution global = session.execute("q5", q5.plan(), hash);
        oracle.assertSameAsDuckDb(q5, global.result());
        final List<RuntimeFilterStats> filters = global.stats().runtimeFilters();
        assertThat(filters).filteredOn(s -> s.scope() == FilterScope.GLOBAL).isNotEmpty().allSatisfy(s -> {
            assertThat(s.state()).as("%s", s).isIn(RuntimeFilterState.APPLIED, RuntimeFilterState.LATE);
            assertThat(s.probeRowsOut()).as("%s", s).isLessThan(s.probeRowsIn());
        });
        final RuntimeFilterStats lineitem = filters.stream().filter(s -> s.probe().equals(List.of("l_suppkey")))
                .findFirst().orElseThrow();
        // Every probe row the filters removed would have been hashed to some CN, most of them to another one.
        assertThat(global.stats().rowsRemote()).isLessThan(off.stats().rowsRemote()
                - (lineitem.probeRowsIn() - lineitem.probeRowsOut()) / 2);
    }
}
