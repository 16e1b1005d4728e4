package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
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
 * Three hosts of their own, each a network namespace with its own address behind a bridge: the
 * coordinator and CN 0 on the first, a CN on each of the others, the test as a client from the root
 * namespace, every process authenticating with the cluster secret. Queries cross real interfaces between
 * addresses (not loopback), at the network MTU, every frame and message tagged and checked, and answer as
 * DuckDB does. Skipped where namespaces cannot be made, except where they are required (CI).
 */
class NamespaceClusterTest {
    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static NetworkNamespaces hosts;
    private static ProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        NetworkNamespaces.assumeAvailable();
        fixture = OracleCluster.inNamespaces(dir, 0.01, 3, 2);
        oracle = fixture.oracle();
        cluster = fixture.cluster();
        hosts = fixture.hosts();
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    static Stream<Arguments> queriesAndStrategies() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String q : List.of("q3", "q5", "q9", "q18", "join_lo", "grp_orderkey")) {
            for (final Strategy strategy : List.of(Strategy.SHUFFLE_HASH, Strategy.BROADCAST, Strategy.COLOCATE,
                    Strategy.AUTO)) {
                cases.add(Arguments.of(q, strategy));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} across 3 hosts")
    @MethodSource("queriesAndStrategies")
    void queriesAcrossThreeHostsEqualDuckDb(final String name, final Strategy strategy) throws Exception {
        final Query query = TpchOracle.query(name);
        final Session session = cluster.session();
        session.shape(3, 2);
        final Session.Execution execution = session.execute(name, query.plan(),
                StrategyConfig.defaults().withStrategy(strategy));
        oracle.assertSameAsDuckDb(query, execution.result());
        if (strategy == Strategy.SHUFFLE_HASH) {
            assertThat(execution.stats().bytesRemote()).as("bytes between hosts").isPositive();
        }
    }

    @Test
    void everyCnReceivesOnItsOwnHostsAddress() {
        final List<String> endpoints = new ArrayList<>();
        for (final MemberStatus m : cluster.session().status()) {
            endpoints.add(m.endpoint().substring(0, m.endpoint().lastIndexOf(':')));
        }
        assertThat(endpoints).containsExactlyInAnyOrder(hosts.address(0), hosts.address(1), hosts.address(2));
        assertThat(cluster.endpoint().host()).isEqualTo(hosts.address(0));
    }
}
