package io.sluice.perf.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.shuffle.Topology;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What crosses CNs at SF 0.1 on 3 CNs x 2 cores: a colocated plan moves at most 1% of the rows a
 * hash shuffle moves, and a hash shuffle moves about (n-1)/n of the rows it shuffles. Both answers
 * equal DuckDB's.
 */
class CrossCnTrafficTest {
    private static final Topology TOPOLOGY = new Topology(3, 2);

    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static Session session;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.1);
        session = new Session(oracle.store(), TOPOLOGY);
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

    @ParameterizedTest
    @ValueSource(strings = {"q4", "join_lo", "grp_orderkey"})
    void colocateMovesAtMostOnePercentOfWhatAHashShuffleMoves(final String name) throws Exception {
        final Query query = TpchOracle.query(name);
        final Session.Execution hash = run(query, Strategy.SHUFFLE_HASH);
        final Session.Execution colocate = run(query, Strategy.COLOCATE);
        oracle.assertSameAsDuckDb(query, hash.result());
        oracle.assertSameAsDuckDb(query, colocate.result());

        final long hashRows = hash.stats().rowsRemote();
        assertThat(hashRows).as("rows a hash shuffle moves in %s", name).isGreaterThan(10_000);
        assertThat(colocate.stats().rowsRemote()).as("rows colocate moves in %s vs %d for shuffle-hash", name, hashRows)
                .isLessThanOrEqualTo(hashRows / 100);
        assertThat(colocate.stats().bytesRemote()).as("bytes colocate moves in %s", name)
                .isLessThanOrEqualTo(hash.stats().bytesRemote() / 100);

        for (final QueryStats.ExchangeStats e : hash.stats().exchanges()) {
            final long rows = e.rowsRemote() + e.rowsLocal();
            if (e.mode().equals("TO_OWNER") && rows > 10_000) {
                assertThat((double) e.rowsRemote() / rows).as("share of exchange %d of %s crossing CNs", e.id(), name)
                        .isBetween(2.0 / 3 - 0.03, 2.0 / 3 + 0.03);
            }
        }
    }

    private static Session.Execution run(final Query query, final Strategy strategy) {
        return session.execute(query.name(), query.plan(), StrategyConfig.defaults().withStrategy(strategy));
    }
}
