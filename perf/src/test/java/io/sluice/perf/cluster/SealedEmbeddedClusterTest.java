package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.DispatchContext;
import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.Queries;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
import io.sluice.shuffle.Topology;
import io.sluice.transport.ClusterSecret;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Embedded clusters with a cluster secret, CNs over aeron:udp (each with its own driver, as processes)
 * and over aeron:ipc: every frame between CNs is sealed with AES-GCM and opened by its receiver, every
 * registered query under the strategies that move rows returns what DuckDB returns over the same SF 0.01
 * rows, rows did cross CNs, and no CN refused a single genuine frame.
 */
class SealedEmbeddedClusterTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("a secret for the sealed embedded cluster"
            .getBytes(StandardCharsets.UTF_8));
    private static final Topology SHAPE = new Topology(3, 2);

    @TempDir
    static Path dir;

    private static TpchOracle oracle;
    private static Session udp;
    private static Session ipc;

    @BeforeAll
    static void start() throws Exception {
        oracle = TpchOracle.generate(dir, 0.01);
        final ClusterContext sealed = new ClusterContext().secret(SECRET);
        udp = new Session(oracle.store(), SHAPE, Session.Network.UDP, Session.defaultTransport(), new DispatchContext(),
                sealed);
        ipc = new Session(oracle.store(), SHAPE, Session.Network.IPC, Session.defaultTransport(), new DispatchContext(),
                sealed);
    }

    @AfterAll
    static void stop() throws Exception {
        for (final AutoCloseable c : new AutoCloseable[] {udp, ipc, oracle}) {
            if (c != null) {
                c.close();
            }
        }
    }

    static Stream<Arguments> networksQueriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String network : List.of("udp", "ipc")) {
            for (final Query q : Queries.all()) {
                for (final Strategy strategy : List.of(Strategy.SHUFFLE_HASH, Strategy.BROADCAST, Strategy.AUTO)) {
                    cases.add(Arguments.of(network, q.name(), strategy));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} {2} over sealed {0}")
    @MethodSource("networksQueriesAndStrategies")
    void answersEqualDuckDbsWithEveryFrameBetweenCnsSealed(final String network, final String name,
            final Strategy strategy) throws Exception {
        final Session session = "udp".equals(network) ? udp : ipc;
        final Query query = TpchOracle.query(name);
        final Session.Execution run = session.execute(query.name(), query.plan(),
                StrategyConfig.defaults().withStrategy(strategy));
        oracle.assertSameAsDuckDb(query, run.result());
        if (strategy == Strategy.SHUFFLE_HASH) {
            assertThat(run.stats().rowsRemote()).as("rows that crossed CNs, sealed").isPositive();
        }
        assertThat(session.status()).hasSize(SHAPE.cnCount())
                .allSatisfy(m -> assertThat(m.rejectedMessages()).as("frames %s refused", m.name()).isZero())
                .extracting(MemberStatus::name).doesNotHaveDuplicates();
    }
}
