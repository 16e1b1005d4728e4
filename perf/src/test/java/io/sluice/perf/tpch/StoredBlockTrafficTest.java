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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * On an embedded 3 x 2 cluster over TPC-H SF 0.01, plans that send scanned blocks whole to other
 * CNs (a range shuffle without colocated scans, a broadcast of an unfiltered table) send them as
 * their stored bytes, counted in the stats, and answer as DuckDB does; a hash shuffle, which splits
 * every block row by row, sends none as stored.
 */
class StoredBlockTrafficTest {
    private static final Topology TOPOLOGY = new Topology(3, 2);

    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static Session session;

    @BeforeAll
    static void generate() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
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

    @ParameterizedTest(name = "{0} under {1}")
    @CsvSource({"join_lo, SHUFFLE_RANGE", "grp_orderkey, SHUFFLE_RANGE", "q18, SHUFFLE_RANGE", "join_lo, BROADCAST", "join_lp, BROADCAST"})
    void blocksRoutedWholeToAnotherCnGoAsStoredAndTheAnswerEqualsDuckDb(final String name, final Strategy strategy)
            throws Exception {
        final Query query = TpchOracle.query(name);
        final Session.Execution run = session.execute(query.name(), query.plan(),
                StrategyConfig.defaults().withStrategy(strategy));
        oracle.assertSameAsDuckDb(query, run.result());
        final QueryStats stats = run.stats();
        assertThat(stats.blocksSentStored()).as("blocks of %s under %s sent as stored", name, strategy).isPositive();
        assertThat(stats.bytesSentStored()).isPositive().isLessThanOrEqualTo(stats.bytesRemote());
        for (final QueryStats.ExchangeStats e : stats.exchanges()) {
            assertThat(e.bytesSentStored()).as("exchange %d", e.id()).isLessThanOrEqualTo(e.bytesRemote());
        }
    }

    @Test
    void aHashShuffleSplitsEveryBlockAndSendsNoneAsStored() throws Exception {
        final Query query = TpchOracle.query("join_lo");
        final Session.Execution run = session.execute(query.name(), query.plan(),
                StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH));
        oracle.assertSameAsDuckDb(query, run.result());
        assertThat(run.stats().rowsRemote()).isPositive();
        assertThat(run.stats().blocksSentStored()).isZero();
        assertThat(run.stats().bytesSentStored()).isZero();
    }
}
