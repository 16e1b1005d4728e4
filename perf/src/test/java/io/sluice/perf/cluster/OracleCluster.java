package io.sluice.perf.cluster;

import io.sluice.perf.tpch.TpchOracle;
import io.sluice.perf.tpch.TpchSkew;
import java.nio.file.Path;
import java.util.List;

/**
 * TPC-H rows with their DuckDB oracle and a cluster of CN processes reading them, for the tests that
 * query real processes: started together and closed together (the cluster, then the network
 * namespaces it ran in, then the oracle), also when starting fails halfway.
 */
final class OracleCluster implements AutoCloseable {
    /** How the cluster starts over the oracle's store, in the namespaces and with the secret when there are any. */
    private interface Starter {
        ProcessCluster start(Path store, NetworkNamespaces hosts, Path secretFile) throws Exception;
    }

    private final TpchOracle oracle;
    private final Path secretFile;
    private NetworkNamespaces hosts;
    private ProcessCluster cluster;

    private OracleCluster(final TpchOracle oracle, final Path secretFile) {
        this.oracle = oracle;
        this.secretFile = secretFile;
    }

    /** {@code cns} CN processes of {@code cores} cores on loopback, without a secret, each with {@code jvmArgs}. */
    static OracleCluster onLoopback(final Path dir, final double scaleFactor, final int cns, final int cores,
                                    final String... jvmArgs) throws Exception {
        return start(dir, scaleFactor, false, 0, (store, h, secret) -> ProcessCluster.loopback(store, cns, cores, jvmArgs));
    }

    /** As {@link #onLoopback}, the coordinator started with {@code coordinatorArgs} too. */
    static OracleCluster onLoopbackWithCoordinatorArgs(final Path dir, final double scaleFactor, final int cns,
                                                       final int cores, final String jvmArg,
                                                       final List<String> coordinatorArgs) throws Exception {
        return start(dir, scaleFactor, false, 0,
                (store, h, secret) -> ProcessCluster.loopbackWithCoordinatorArgs(store, cns, cores, coordinatorArgs,
                        jvmArg));
    }

    /** The same, every process and the client authenticating with a secret written into {@code dir}. */
    static OracleCluster onLoopbackWithSecret(final Path dir, final double scaleFactor, final int cns,
                                              final int cores, final String jvmArg) throws Exception {
        return start(dir, scaleFactor, true, 0,
                (store, h, secret) -> ProcessCluster.loopbackWithSecret(store, secret, cns, cores, jvmArg));
    }

    /**
     * One CN process of {@code cores} cores in each of {@code hostCount} network namespaces joined by a
     * bridge; off loopback a cluster needs its secret, so one is written into {@code dir}.
     */
    static OracleCluster inNamespaces(final Path dir, final double scaleFactor, final int hostCount,
                                      final int cores) throws Exception {
        return start(dir, scaleFactor, true, hostCount,
                (store, h, secret) -> ProcessCluster.inNamespaces(store, h, cores, secret));
    }

    /** {@code cns} CN processes of {@code cores} cores on loopback over TPC-H tables whose foreign keys are skewed. */
    static OracleCluster skewedOnLoopback(final Path dir, final double scaleFactor, final TpchSkew skew, final int cns,
                                          final int cores, final String jvmArg) throws Exception {
        return start(dir, scaleFactor, skew, false, 0,
                (store, h, secret) -> ProcessCluster.loopback(store, cns, cores, jvmArg));
    }

    private static OracleCluster start(final Path dir, final double scaleFactor, final boolean withSecret,
                                       final int hostCount, final Starter starter) throws Exception {
        return start(dir, scaleFactor, null, withSecret, hostCount, starter);
    }

    private static OracleCluster start(final Path dir, final double scaleFactor, final TpchSkew skew,
                                       final boolean withSecret, final int hostCount, final Starter starter)
            throws Exception {
        final OracleCluster started = new OracleCluster(TpchOracle.generate(dir, scaleFactor, skew),
                withSecret ? ProcessCluster.writeSecret(dir.resolve("cluster.secret")) : null);
        try {
            if (hostCount > 0) {
                started.hosts = NetworkNamespaces.create(hostCount);
            }
            started.cluster = starter.start(started.oracle.store().dir(), started.hosts, started.secretFile);
            return started;
        } catch (final Exception | Error e) {
            try {
                started.close();
            } catch (final Exception cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    TpchOracle oracle() {
        return oracle;
    }

    ProcessCluster cluster() {
        return cluster;
    }

    /** The namespaces the CNs run in; null on loopback. */
    NetworkNamespaces hosts() {
        return hosts;
    }

    /** The secret file every process reads; null without a secret. */
    Path secretFile() {
        return secretFile;
    }

    @Override
    public void close() throws Exception {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            try {
                if (hosts != null) {
                    // Removing a namespace removes what was set up inside it (addresses, nftables rules).
                    hosts.close();
                }
            } finally {
                oracle.close();
            }
        }
    }
}
