package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.Strategy;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lossy network: three namespace hosts (the coordinator and a CN on the first, a CN on each of the
 * others), each dropping 5% of the UDP packets it receives at random (an nftables rule inside its
 * namespace). Aeron retransmits what was lost, so every answer is the one the same queries gave without
 * loss, and DuckDB's; the retransmits the CNs' drivers counted, and the time each run took, are printed.
 */
class PacketLossTest {
    private static final int LOSS_PERCENT = 5;
    private static final String[] QUERIES = {"q1", "q3", "q4", "q6", "q10", "q18", "join_lo", "grp_orderkey"};
    private static final Strategy[] STRATEGIES = {Strategy.SHUFFLE_HASH, Strategy.COLOCATE, Strategy.BROADCAST};

    @TempDir
    static Path dir;

    private static OracleCluster fixture;
    private static TpchOracle oracle;
    private static NetworkNamespaces hosts;
    private static ProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        NetworkNamespaces.assumeAvailable();
        final Commands.Result nft = Commands.run(List.of("sh", "-c", "command -v nft"));
        if (!nft.succeeded()) {
            final String why = "nft (the nftables command) is not installed: apt-get install nftables";
            if (NetworkNamespaces.required(System.getProperty(NetworkNamespaces.REQUIRED_PROPERTY))) {
                Assertions.fail(why);
            }
            Assumptions.abort(why);
        }
        fixture = OracleCluster.inNamespaces(dir, 0.01, 3, 1);
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

    /** Runs every query under every strategy; returns the results in order and prints the time taken. */
    private static List<QueryResult> runAll(final String label) throws Exception {
        final List<QueryResult> results = new ArrayList<>();
        final long start = System.nanoTime();
        for (final String name : QUERIES) {
            final Query q = TpchOracle.query(name);
            for (final Strategy s : STRATEGIES) {
                final QueryResult r = cluster.session().execute(q.name(), q.plan(), StrategyConfig.defaults()
                        .withStrategy(s), 120_000).result();
                oracle.assertSameAsDuckDb(q, r);
                results.add(r);
            }
        }
        System.out.printf(Locale.ROOT, "PacketLossTest: %d queries %s in %.1f s; retransmits so far %d%n",
                results.size(), label, (System.nanoTime() - start) / 1e9, retransmits());
        return results;
    }

    private static long retransmits() {
        return cluster.session().status().stream().mapToLong(MemberStatus::retransmits).sum();
    }

    private static void dropUdp(final int host, final int percent) {
        final String table = "sluice_loss";
        Commands.check(hosts.command(host, List.of("nft", "add", "table", "inet", table)));
        Commands.check(hosts.command(host, List.of("nft", "add", "chain", "inet", table, "input",
                "{ type filter hook input priority 0 ; policy accept ; }")));
        Commands.check(hosts.command(host, List.of("nft", "add", "rule", "inet", table, "input", "meta", "l4proto",
                "udp", "numgen", "random", "mod", "100", "<", Integer.toString(percent), "drop")));
    }

    @Test
    void everyAnswerUnderFivePercentLossIsTheAnswerWithoutLoss() throws Exception {
        runAll("to warm up");
        final List<QueryResult> clean = runAll("without loss");
        final long before = retransmits();
        for (int h = 0; h < hosts.hosts(); h++) {
            dropUdp(h, LOSS_PERCENT);
        }
        final List<QueryResult> lossy = runAll("with " + LOSS_PERCENT + "% of UDP packets dropped");
        assertThat(lossy).hasSameSizeAs(clean);
        for (int i = 0; i < clean.size(); i++) {
            assertThat(lossy.get(i).rows()).as("query %d of %d", i, clean.size()).isEqualTo(clean.get(i).rows());
        }
        assertThat(retransmits()).as("packets the CNs' drivers sent again").isGreaterThan(before);
    }
}
