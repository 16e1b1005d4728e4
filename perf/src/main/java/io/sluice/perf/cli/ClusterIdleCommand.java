package io.sluice.perf.cli;

import io.sluice.perf.bench.IdleBench;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice cluster idle}: what an idle cluster of processes costs, and its first query after idling. */
@Command(name = "idle", mixinStandardHelpOptions = true,
        description = {"Starts `sluice cluster up` with N CN processes, runs TPC-H q6 from a client in this process a"
            + " few times, lets the cluster idle, and reports the CPU its processes used while idle (all their"
            + " threads, from /proc) and how long the first q6 after idling took next to the warm ones. Appends the"
            + " figures, with the command, to --out."},
        footer = {"", "Example:", "  sluice cluster idle --store data/sf0.01 --cn 3 --cores 1 --idle 60"})
public final class ClusterIdleCommand extends CliCommand {
    @Option(names = "--store", required = true, paramLabel = "DIR", description = "The store the CNs read (q6 reads"
            + " lineitem).")
    Path store;

    @Option(names = "--cn", defaultValue = "3", paramLabel = "N", description = "CN processes (default: ${DEFAULT-VALUE}).")
    int cnCount;

    @Option(names = "--cores", defaultValue = "1", paramLabel = "K", description = "Worker threads of each CN"
            + " (default: ${DEFAULT-VALUE}).")
    int cores;

    @Option(names = "--idle", defaultValue = "60", paramLabel = "SECONDS", description = "How long the cluster idles"
            + " (at least 10; default: ${DEFAULT-VALUE}); CPU is measured over all but its first 5 s.")
    int idleSeconds;

    @Option(names = "--runs", defaultValue = "40", paramLabel = "N", description = "q6 runs before idling (at least"
            + " 2; default: ${DEFAULT-VALUE}); the warm time is the median of the last half.")
    int runs;

    @Option(names = "--jvm-arg", paramLabel = "ARG", description = "A JVM argument of the coordinator's and every CN's"
            + " process, e.g. --jvm-arg=-Dsluice.transport.idle.quiet.park=20ms (repeatable).")
    List<String> jvmArgs = new ArrayList<>();

    @Option(names = "--out", defaultValue = "target/bench/idle.md", paramLabel = "FILE", description = "The result file"
            + " the figures are appended to (default: ${DEFAULT-VALUE}).")
    Path resultFile;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) throws IOException, InterruptedException {
        if (cnCount < 1 || cores < 1) {
            throw new IllegalArgumentException("--cn and --cores must be at least 1");
        }
        if (runs < 2) {
            throw new IllegalArgumentException("--runs " + runs + ": give at least 2");
        }
        if (idleSeconds < 10) {
            throw new IllegalArgumentException("--idle " + idleSeconds + ": give at least 10 seconds");
        }
        if (!Files.isDirectory(store)) {
            throw new IllegalArgumentException("--store " + store + " is not a directory: make one with `sluice gen --sf"
                    + " 0.01 --out " + store + "`");
        }
        final IdleBench.Result r = IdleBench.run(store, cnCount, cores, idleSeconds, runs, jvmArgs, line -> {
            err.println(line);
            err.flush();
        });
        final String line = String.format(Locale.ROOT, "| %s | %s | %d x %d | %s | %d | %d s | %.2f%% | %.1f | %.1f | %.1f |",
                LocalDate.now(), InetAddress.getLocalHost().getHostName(), r.cnCount(), r.cores(),
                jvmArgs.isEmpty() ? "defaults" : String.join(" ", jvmArgs), runs, r.idleSeconds(), r.idleCpuPercent(),
                r.warmMedianMillis(), r.firstAfterIdleMillis(), r.secondAfterIdleMillis());
        if (resultFile.getParent() != null) {
            Files.createDirectories(resultFile.getParent());
        }
        if (!Files.exists(resultFile)) {
            Files.writeString(resultFile, "# Idle cluster: CPU while idle and q6 after idling\n\nWritten by `" + commandLine()
                    + "` (and later runs of `sluice cluster idle`), one row per run. CPU: all threads of `cluster up`"
                    + " and its CN processes, in % of one core, measured over all but the first 5 s of the idle period (the JIT"
                    + " has compiled more of an idle loop the more queries ran before). Times: TPC-H q6 from a client"
                    + " in another process, ms.\n\n"
                    + "| date | host | CNs x cores | JVM args | q6 runs before | idle | idle CPU | warm q6 (median of the"
                    + " last half of the runs) | first q6 after idle | second |\n|---|---|---|---|---|---|---|---|---|---|\n", StandardCharsets.UTF_8);
        }
        Files.writeString(resultFile, line + "\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        out.println(line);
        return 0;
    }
}
