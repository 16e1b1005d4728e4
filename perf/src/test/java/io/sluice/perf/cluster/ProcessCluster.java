package io.sluice.perf.cluster;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.MemberState;
import io.sluice.perf.cli.SluiceCommand;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * A real cluster for a test: a {@code sluice coordinator} process and {@code sluice cn} processes, each
 * a JVM of its own with its own media driver, over UDP, on loopback or in network namespaces, and a
 * client {@link Session} connected to the coordinator from the test JVM, all with the same cluster
 * secret when one is given. {@link #close} stops every process it started (by pid) and the session.
 */
final class ProcessCluster implements AutoCloseable {
    /** How long a process may take to start and say so. */
    static final Duration START = Duration.ofSeconds(60);

    private final Path store;
    private final Path secretFile;
    private final NetworkNamespaces namespaces;
    private final List<String> cnJvmArgs;
    /** More arguments of the coordinator, after --listen, --store and --secret-file. */
    private List<String> coordinatorArgs = List.of();
    /** More arguments of every CN, after the ones it always gets. */
    private List<String> cnArgs = List.of();
    private final int cores;
    private final Map<String, JavaProcess> cns = new LinkedHashMap<>();
    private JavaProcess coordinator;
    private Endpoint endpoint;
    private Session session;

    private ProcessCluster(final Path store, final Path secretFile, final NetworkNamespaces namespaces, final int cores,
            final List<String> cnJvmArgs) {
        this.store = store;
        this.secretFile = secretFile;
        this.namespaces = namespaces;
        this.cores = cores;
        this.cnJvmArgs = cnJvmArgs;
    }

    /** A coordinator and {@code cnCount} CNs named cn0.. on loopback. */
    static ProcessCluster loopback(final Path store, final int cnCount, final int cores, final String... cnJvmArgs) {
        return start(store, null, null, cnCount, cores, cnJvmArgs);
    }

    /** As {@link #loopback}, every process authenticating with the secret in {@code secretFile}. */
    static ProcessCluster loopbackWithSecret(final Path store, final Path secretFile, final int cnCount,
            final int cores, final String... cnJvmArgs) {
        return start(store, secretFile, null, cnCount, cores, cnJvmArgs);
    }

    /** As {@link #loopback}, the coordinator started with {@code coordinatorArgs} too (e.g. --mysql 127.0.0.1:0). */
    static ProcessCluster loopbackWithCoordinatorArgs(final Path store, final int cnCount, final int cores,
            final List<String> coordinatorArgs, final String... cnJvmArgs) {
        return start(store, null, null, cnCount, cores, coordinatorArgs, List.of(), cnJvmArgs);
    }

    /** As {@link #loopback}, the coordinator and every CN started with more arguments (e.g. --metrics 127.0.0.1:0). */
    static ProcessCluster loopbackWithArgs(final Path store, final int cnCount, final int cores,
            final List<String> coordinatorArgs, final List<String> cnArgs) {
        return start(store, null, null, cnCount, cores, coordinatorArgs, cnArgs);
    }

    /**
     * The coordinator in namespace host 0 and CN i in host i, addressed by their namespace addresses, with
     * the secret in {@code secretFile} (a cluster off loopback needs one).
     */
    static ProcessCluster inNamespaces(final Path store, final NetworkNamespaces namespaces, final int cores,
            final Path secretFile) {
        return start(store, secretFile, namespaces, namespaces.hosts(), cores);
    }

    /** Writes a new random secret to {@code file}, readable by its owner only, and returns the file. */
    static Path writeSecret(final Path file) throws java.io.IOException {
        final byte[] random = new byte[32];
        new java.security.SecureRandom().nextBytes(random);
        java.nio.file.Files.writeString(file, java.util.Base64.getEncoder().encodeToString(random));
        java.nio.file.Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString(
                "rw-------"));
        return file;
    }

    private static ProcessCluster start(final Path store, final Path secretFile, final NetworkNamespaces namespaces,
            final int cnCount, final int cores, final String... cnJvmArgs) {
        return start(store, secretFile, namespaces, cnCount, cores, List.of(), List.of(), cnJvmArgs);
    }

    private static ProcessCluster start(final Path store, final Path secretFile, final NetworkNamespaces namespaces,
            final int cnCount, final int cores, final List<String> coordinatorArgs, final List<String> cnArgs,
            final String... cnJvmArgs) {
        final ProcessCluster cluster = new ProcessCluster(store, secretFile, namespaces, cores, List.of(cnJvmArgs));
        cluster.coordinatorArgs = List.copyOf(coordinatorArgs);
        cluster.cnArgs = List.copyOf(cnArgs);
        boolean started = false;
        try {
            cluster.startCoordinator(0);
            for (int i = 0; i < cnCount; i++) {
                cluster.addCn("cn" + i);
            }
            for (final JavaProcess cn : cluster.cns.values()) {
                cn.awaitLine(line -> line.contains(" joined: CN "), START);
            }
            cluster.session = cluster.connect();
            cluster.awaitAlive(cnCount);
            started = true;
            return cluster;
        } finally {
            if (!started) {
                cluster.close();
            }
        }
    }

    /** Starts the coordinator listening on {@code port} (0: any free port) of its host. */
    void startCoordinator(final int port) {
        if (coordinator != null) {
            coordinator.close();
        }
        final String host = namespaces == null ? "127.0.0.1" : namespaces.address(0);
        final List<String> args = new ArrayList<>(List.of(withSecret("coordinator", "--listen", host + ":" + port,
                "--store", store.toString())));
        args.addAll(coordinatorArgs);
        final JavaProcess.Launch launch = JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx256m")
                .args(args.toArray(String[]::new));
        coordinator = namespaces == null ? launch.start() : launch.startIn(namespaces, 0);
        final String line = coordinator.awaitLine(l -> l.startsWith("coordinator listening on "), START);
        endpoint = Endpoint.parse(line.substring("coordinator listening on ".length()).split(" ")[0], false);
    }

    /** Starts a CN process that joins the coordinator (on its own host in namespaces: CN i on host i). */
    JavaProcess addCn(final String name) {
        final int host = cns.size();
        final String bind = namespaces == null ? "127.0.0.1" : namespaces.address(host % namespaces.hosts());
        final List<String> jvmArgs = new ArrayList<>(cnJvmArgs);
        jvmArgs.add("-Dsluice.cluster.prepare.timeout=60s");
        final List<String> args = new ArrayList<>(List.of(withSecret("cn", "--coordinator", endpoint.toString(),
                "--store", store.toString(), "--cores", Integer.toString(cores), "--name", name, "--bind", bind)));
        args.addAll(cnArgs);
        final JavaProcess.Launch launch = JavaProcess.of(SluiceCommand.class).jvmArgs(jvmArgs.toArray(String[]::new))
                .args(args.toArray(String[]::new));
        final JavaProcess cn = namespaces == null ? launch.start() : launch.startIn(namespaces, host % namespaces.hosts());
        cns.put(name, cn);
        return cn;
    }

    /** The arguments, followed by {@code --secret-file} when the cluster has a secret. */
    String[] withSecret(final String... args) {
        final List<String> all = new ArrayList<>(List.of(args));
        if (secretFile != null) {
            all.add("--secret-file");
            all.add(secretFile.toString());
        }
        return all.toArray(String[]::new);
    }

    /** A new client session on the coordinator, with the cluster's secret; the caller closes it. */
    Session connect() {
        return Session.connect(endpoint, Session.defaultTransport(), new ClusterContext()
                .secret(secretFile == null ? null : ClusterSecret.read(secretFile)));
    }

    /** Waits until the coordinator counts exactly {@code count} CNs, all alive. */
    void awaitAlive(final int count) {
        awaitMembers(members -> members.size() == count
                && members.stream().allMatch(m -> m.state() == MemberState.ALIVE), "exactly " + count + " CNs alive");
    }

    /** Waits until the coordinator's members satisfy {@code condition}; fails after a minute naming it. */
    List<MemberStatus> awaitMembers(final Predicate<List<MemberStatus>> condition, final String what) {
        final long deadline = System.nanoTime() + START.toNanos();
        List<MemberStatus> members = List.of();
        while (System.nanoTime() - deadline < 0) {
            members = session.status();
            if (condition.test(members)) {
                return members;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        throw new AssertionError("waited " + START.toSeconds() + " s for " + what + "; the coordinator counts " + members
                + "\n" + diagnostics());
    }

    /** The client session connected to the coordinator. */
    Session session() {
        return session;
    }

    /** Where the coordinator listens. */
    Endpoint endpoint() {
        return endpoint;
    }

    JavaProcess coordinator() {
        return coordinator;
    }

    /** The CN process of that name. */
    JavaProcess cn(final String name) {
        return cns.get(name);
    }

    /** Forgets a CN process the test ended itself (its pid is not signalled again on close). */
    void forget(final String name) {
        cns.remove(name).close();
    }

    /** Every process's output, for a failure message. */
    String diagnostics() {
        final StringBuilder sb = new StringBuilder();
        if (coordinator != null) {
            sb.append("--- coordinator (pid ").append(coordinator.pid()).append(")\n").append(String.join("\n",
                    tail(coordinator.stdout()))).append('\n').append(String.join("\n", tail(coordinator.stderr())));
        }
        for (final Map.Entry<String, JavaProcess> e : cns.entrySet()) {
            sb.append("\n--- ").append(e.getKey()).append(" (pid ").append(e.getValue().pid()).append(")\n")
                    .append(String.join("\n", tail(e.getValue().stdout()))).append('\n')
                    .append(String.join("\n", tail(e.getValue().stderr())));
        }
        return sb.toString();
    }

    private static List<String> tail(final List<String> lines) {
        return lines.subList(Math.max(0, lines.size() - 30), lines.size());
    }

    /** Stops the session, every CN and the coordinator, each by its pid. */
    @Override
    public void close() {
        try {
            if (session != null) {
                session.close();
            }
        } finally {
            for (final JavaProcess cn : cns.values()) {
                cn.close();
            }
            cns.clear();
            if (coordinator != null) {
                coordinator.close();
            }
        }
    }
}
