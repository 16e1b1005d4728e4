package io.sluice.perf.bench;

import io.sluice.dispatch.cluster.Session;
import io.sluice.perf.cluster.JavaCommand;
import io.sluice.perf.tpch.Queries;
import io.sluice.perf.tpch.Query;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.transport.Endpoint;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an idle cluster of processes costs and how fast it answers after idling: starts
 * {@code sluice cluster up} as a child process, runs TPC-H q6 from a client in this process (so the
 * coordinator is woken across a process boundary, as by any client), measures the CPU time of the
 * cluster's processes (every thread's {@code /proc/PID/task/TID/schedstat}) over an idle period, then
 * times the first query after it and the warm ones around it.
 */
public final class IdleBench {
    private static final Pattern ADDRESS = Pattern.compile("cluster up: .*coordinator (\\S+);");
    private static final long START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);

    /** The figures of one run. */
    public record Result(int cnCount, int cores, int idleSeconds, double idleCpuPercent, double[] warmMillis,
                         double firstAfterIdleMillis, double secondAfterIdleMillis) {
        /** The median of the last half of the runs before the idle period (the first half warms the JIT). */
        public double warmMedianMillis() {
            final double[] sorted = Arrays.copyOfRange(warmMillis, warmMillis.length / 2, warmMillis.length);
            Arrays.sort(sorted);
            return sorted[sorted.length / 2];
        }
    }

    private IdleBench() {
    }

    /**
     * Runs the measurement on a cluster of {@code cnCount} CN processes of {@code cores} cores over {@code store}.
     *
     * @param jvmArgs JVM arguments of the cluster's processes (the coordinator's and every CN's)
     * @param log     progress, a line each
     */
    public static Result run(final Path store, final int cnCount, final int cores, final int idleSeconds,
            final int warmRuns, final List<String> jvmArgs, final Consumer<String> log) throws InterruptedException {
        final List<String> args = new ArrayList<>(List.of("cluster", "up", "--cn", Integer.toString(cnCount),
                "--cores", Integer.toString(cores), "--store", store.toAbsolutePath().toString(), "--listen",
                "127.0.0.1:0"));
        for (final String a : jvmArgs) {
            args.add("--jvm-arg=" + a);
        }
        final Process cluster;
        try {
            cluster = new ProcessBuilder(JavaCommand.sluice(jvmArgs, args)).redirectErrorStream(true).start();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start sluice cluster up: " + e.getMessage(), e);
        }
        try {
            final String address = awaitAddress(cluster, log);
            final Query q6 = Queries.tpch(6);
            final StrategyConfig config = StrategyConfig.defaults();
            try (Session session = Session.connect(Endpoint.parse(address, false))) {
                final double[] warm = new double[warmRuns];
                for (int i = 0; i < warmRuns; i++) {
                    warm[i] = timed(session, q6, config);
                }
                log.accept(String.format("q6 before idling: first %.1f ms, last %.1f ms of %d; idling %d s", warm[0],
                        warm[warmRuns - 1], warmRuns, idleSeconds));
                // The first seconds of idling are the process's last active ones: measure after them.
                final long settleNs = TimeUnit.SECONDS.toNanos(5);
                TimeUnit.NANOSECONDS.sleep(settleNs);
                final long cpuBefore = treeCpuNanos(cluster.toHandle());
                final long before = System.nanoTime();
                TimeUnit.SECONDS.sleep(Math.max(1, idleSeconds - 5));
                final long cpu = treeCpuNanos(cluster.toHandle()) - cpuBefore;
                final double idleCpu = 100.0 * cpu / (System.nanoTime() - before);
                final double first = timed(session, q6, config);
                final double second = timed(session, q6, config);
                log.accept(String.format("idle CPU %.2f%% of one core; first q6 after idling %.1f ms, then %.1f ms",
                        idleCpu, first, second));
                return new Result(cnCount, cores, idleSeconds, idleCpu, warm, first, second);
            }
        } finally {
            cluster.destroy();
            if (!cluster.waitFor(30, TimeUnit.SECONDS)) {
                cluster.destroyForcibly();
                cluster.waitFor();
            }
        }
    }

    private static double timed(final Session session, final Query query, final StrategyConfig config) {
        final long start = System.nanoTime();
        session.execute(query.name(), query.plan(), config);
        return (System.nanoTime() - start) / 1e6;
    }

    /** Reads the cluster's output until it prints its address; the rest of its output is dropped. */
    private static String awaitAddress(final Process cluster, final Consumer<String> log) {
        final CompletableFuture<String> address = new CompletableFuture<>();
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(cluster.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    final Matcher m = ADDRESS.matcher(line);
                    if (m.find()) {
                        address.complete(m.group(1));
                    } else if (!address.isDone()) {
                        log.accept("  " + line);
                    }
                }
                address.completeExceptionally(new IllegalStateException("sluice cluster up exited with "
                        + cluster.waitFor() + " before it was up; see its output above"));
            } catch (final IOException | InterruptedException e) {
                address.completeExceptionally(e);
            }
        }, "sluice-idle-bench-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return address.get(START_TIMEOUT_NS, TimeUnit.NANOSECONDS);
        } catch (final Exception e) {
            throw new IllegalStateException("sluice cluster up did not come up within "
                    + TimeUnit.NANOSECONDS.toSeconds(START_TIMEOUT_NS) + " s: " + e.getMessage(), e);
        }
    }

    /** CPU time of a process and its descendants, every thread, from /proc (Linux). */
    public static long treeCpuNanos(final ProcessHandle root) {
        long total = processCpuNanos(root.pid());
        for (final ProcessHandle child : root.descendants().toList()) {
            total += processCpuNanos(child.pid());
        }
        return total;
    }

    private static long processCpuNanos(final long pid) {
        final Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long total = 0;
        try (var list = Files.list(tasks)) {
            for (final Path task : list.toList()) {
                try {
                    final String schedstat = Files.readString(task.resolve("schedstat")).trim();
                    total += Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                } catch (final IOException | RuntimeException e) {
                    // The thread ended between the listing and the read: its time is gone with it.
                    continue;
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read the threads of process " + pid + " in " + tasks
                    + " (this measurement needs Linux's /proc): " + e.getMessage(), e);
        }
        return total;
    }
}
