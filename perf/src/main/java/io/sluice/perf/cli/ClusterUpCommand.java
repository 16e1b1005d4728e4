package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.dispatch.cluster.Coordinator;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.MemberState;
import io.sluice.storage.StorageException;
import io.sluice.storage.Store;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.Endpoint;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.agrona.CloseHelper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice cluster up}: a coordinator in this process and N CN processes on this host, for trying
 * a real cluster on one machine; everything stops together on SIGINT or SIGTERM.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = {"Starts a coordinator in this process and N CN processes (each its own JVM and Aeron media"
            + " driver, UDP on loopback) over one store, prints the coordinator's address once every CN has joined,"
            + " and runs until SIGINT (CTRL-C) or SIGTERM, then stops the CNs and itself. Each CN's output is"
            + " printed with its name in front."},
        footer = {"", "Example (then, in another terminal: sluice query --coordinator 127.0.0.1:7400 --tpch 18):",
            "  sluice cluster up --cn 3 --cores 2 --store data/sf0.1"})
public final class ClusterUpCommand extends CliCommand {
    /** How long the CNs may take to start and join. */
    private static final long JOIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    @Option(names = "--cn", required = true, paramLabel = "N", description = "CN processes to start.")
    int cnCount;

    @Option(names = "--cores", required = true, paramLabel = "K", description = "Worker threads of each CN.")
    int cores;

    @Option(names = "--store", required = true, paramLabel = "DIR", description = "The store every CN reads.")
    Path store;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7400",
            description = "The coordinator's UDP address (default: ${DEFAULT-VALUE}; port 0 takes any free port).")
    String listen;

    @Option(names = "--jvm-arg", paramLabel = "ARG",
            description = "A JVM argument for every CN process, e.g. --jvm-arg=-Xmx512m (repeatable).")
    List<String> jvmArgs = new ArrayList<>();

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws InterruptedException {
        if (cnCount < 1 || cnCount > 64) {
            throw new IllegalArgumentException("--cn must be 1..64 on one host, got " + cnCount);
        }
        if (cores < 1) {
            throw new IllegalArgumentException("--cores must be 1 or more, got " + cores);
        }
        final Endpoint endpoint = Endpoint.parse(listen, false);
        if (!Files.isDirectory(store)) {
            throw new StorageException("store " + store + " does not exist: create one with sluice gen --sf 0.1 --out "
                    + store);
        }
        final Consumer<String> log = ClusterProcess.log(out);
        final EmbeddedDriver driver = EmbeddedDriver.launch(ClusterProcess.transport());
        final Coordinator coordinator;
        try {
            coordinator = Coordinator.udp(driver.aeron(), endpoint, Store.open(store), new ClusterContext(),
                    driver.context(), log);
        } catch (final RuntimeException e) {
            driver.close();
            throw new IllegalArgumentException(e.getMessage() + "; choose another --listen, e.g. --listen 127.0.0.1:0", e);
        }
        final List<Process> cns = new ArrayList<>();
        final UntilStopped until = new UntilStopped(() -> {
            stop(cns);
            CloseHelper.closeAll(coordinator, driver);
        });
        coordinator.start();
        log.accept("coordinator listening on " + coordinator.listening() + " (store " + store + ")");
        final String address = coordinator.listening();
        final CompletableFuture<String> ended = new CompletableFuture<>();
        try {
            for (int i = 0; i < cnCount; i++) {
                final String name = "cn" + i;
                final Process p = new ProcessBuilder(JavaCommand.sluice(jvmArgs, List.of("cn", "--coordinator", address,
                        "--store", store.toAbsolutePath().toString(), "--cores", Integer.toString(cores), "--name", name,
                        "--bind", endpoint.host(), "--parent-pid", Long.toString(ProcessHandle.current().pid()))))
                        .redirectErrorStream(true).start();
                cns.add(p);
                relay(p, "[" + name + "] ", log);
                // A CN that dies leaves the cluster, as on any host; the others and the coordinator go on.
                p.onExit().thenRun(() -> log.accept("[" + name + "] exited with " + p.exitValue()));
            }
        } catch (final IOException e) {
            ended.complete("cannot start a CN process: " + e.getMessage());
        }
        final String joinFailure = awaitJoined(coordinator, cns, ended);
        if (joinFailure != null) {
            return fail(err, until.await(CompletableFuture.completedFuture(joinFailure)));
        }
        log.accept("cluster up: " + cnCount + " CNs x " + cores + " cores, coordinator " + address
                + "; try: sluice query --coordinator " + address + " --tpch 1; stop with CTRL-C");
        final String failure = until.await(ended);
        return failure == null ? 0 : fail(err, failure);
    }

    /** Waits until every CN has joined; null then, else why not. */
    private String awaitJoined(final Coordinator coordinator, final List<Process> cns,
            final CompletableFuture<String> ended) {
        final long deadline = System.nanoTime() + JOIN_TIMEOUT_NS;
        while (true) {
            int alive = 0;
            for (final MemberStatus m : coordinator.membership()) {
                alive += m.state() == MemberState.ALIVE ? 1 : 0;
            }
            if (alive == cnCount) {
                return null;
            }
            if (ended.isDone()) {
                return ended.join();
            }
            for (final Process p : cns) {
                if (!p.isAlive()) {
                    return "CN process " + p.pid() + " exited with " + p.exitValue() + " before it joined; see its"
                            + " output above";
                }
            }
            if (System.nanoTime() - deadline > 0) {
                return alive + " of " + cnCount + " CNs joined within " + TimeUnit.NANOSECONDS.toSeconds(JOIN_TIMEOUT_NS)
                        + " s; see their output above";
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** Prints a child's output lines with its name in front, on a daemon thread. */
    private static void relay(final Process p, final String prefix, final Consumer<String> log) {
        final Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    log.accept(prefix + line);
                }
            } catch (final IOException e) {
                log.accept(prefix + "(output lost: " + e.getMessage() + ")");
            }
        }, "sluice-relay-" + p.pid());
        t.setDaemon(true);
        t.start();
    }

    /** Sends every CN SIGTERM, waits for them, and kills those still running after a few seconds. */
    private static void stop(final List<Process> cns) {
        for (final Process p : cns) {
            p.destroy();
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (final Process p : cns) {
            try {
                if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }
}
