package io.sluice.perf.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.DuckDbCsv;
import io.sluice.perf.duckdb.DuckDbLoader;
import io.sluice.storage.Store;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code docs/walkthrough.md} as a reader follows it: every command of its {@code sh} blocks runs in
 * order with bash, in a directory of its own whose {@code bin} is the repository's (so {@code bin/sluice}
 * runs the jar this build packaged), the cluster's address moved to a free port. The command that starts
 * a cluster ({@code cluster up}, in the page's second terminal) runs in the background until the page is
 * done, then gets SIGTERM. Every command must succeed; the join's rows, on one CN and on the cluster,
 * must be the ones the page shows, and DuckDB's for the same statement over the same tables.
 */
class WalkthroughIT {
    private static final Path PAGE = Path.of("../docs/walkthrough.md");
    private static final Path BIN = Path.of("../bin").toAbsolutePath().normalize();
    private static final String PAGE_ADDRESS = "127.0.0.1:7400";
    private static final Pattern HEREDOC = Pattern.compile("<<-?\\s*['\"]?(\\w+)['\"]?");
    private static final long COMMAND_TIMEOUT_S = 300;
    private static final long CLUSTER_START_NS = TimeUnit.SECONDS.toNanos(120);

    @TempDir
    Path dir;

    /** One command of the page, and the output the page shows after it (null when it shows none). */
    record Step(String command, String shown) {
    }

    /** What a command printed. */
    record Ran(String command, int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "`" + command + "` exited with " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** The page's commands in order: each line of an sh block, with its continuation lines and here-document. */
    static List<Step> steps(final List<String> page) {
        final List<Step> steps = new ArrayList<>();
        String fence = null;
        final List<String> block = new ArrayList<>();
        for (final String line : page) {
            if (fence == null && line.startsWith("```")) {
                fence = line.substring(3).strip();
                block.clear();
            } else if (fence != null && line.equals("```")) {
                if (fence.equals("sh")) {
                    for (final String command : commands(block)) {
                        steps.add(new Step(command, null));
                    }
                } else if (fence.equals("text") && !steps.isEmpty()) {
                    final Step last = steps.remove(steps.size() - 1);
                    steps.add(new Step(last.command(), String.join("\n", block)));
                }
                fence = null;
            } else if (fence != null) {
                block.add(line);
            }
        }
        return steps;
    }

    private static List<String> commands(final List<String> lines) {
        final List<String> commands = new ArrayList<>();
        final StringBuilder command = new StringBuilder();
        String hereEnd = null;
        for (final String line : lines) {
            if (hereEnd == null && (line.isBlank() || line.strip().startsWith("#")) && command.length() == 0) {
                continue;
            }
            command.append(command.length() == 0 ? "" : "\n").append(line);
            if (hereEnd != null) {
                if (line.equals(hereEnd)) {
                    hereEnd = null;
                    commands.add(command.toString());
                    command.setLength(0);
                }
                continue;
            }
            final Matcher m = HEREDOC.matcher(line);
            if (m.find()) {
                hereEnd = m.group(1);
            } else if (!line.endsWith("\\")) {
                commands.add(command.toString());
                command.setLength(0);
            }
        }
        assertThat(hereEnd).as("a here-document of the page ends").isNull();
        assertThat(command.toString()).as("a command of the page ends").isEmpty();
        return commands;
    }

    private ProcessBuilder bash(final String command) {
        return new ProcessBuilder("bash", "-c", command).directory(dir.toFile());
    }

    private Ran run(final String command) throws IOException, InterruptedException {
        final Path out = Files.createTempFile(dir, "stdout", ".txt");
        final Path err = Files.createTempFile(dir, "stderr", ".txt");
        final Process p = bash(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("`" + command + "` did not finish within " + COMMAND_TIMEOUT_S + " s");
        }
        return new Ran(command, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Starts a cluster as the page's second terminal does and returns once it says it is up. */
    private Process startCluster(final String command, final Path log) throws IOException {
        final Process p = bash("exec " + command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        final long deadline = System.nanoTime() + CLUSTER_START_NS;
        while (Files.readAllLines(log).stream().noneMatch(l -> l.startsWith("cluster up: "))) {
            assertThat(p.isAlive()).as("`%s` ended before it was up:\n%s", command, Files.readString(log)).isTrue();
            assertThat(System.nanoTime() - deadline).as("`%s` up within %d s:\n%s", command,
                    TimeUnit.NANOSECONDS.toSeconds(CLUSTER_START_NS), Files.readString(log)).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        return p;
    }

    private static String withoutTrailingBlanks(final String text) {
        final List<String> lines = new ArrayList<>();
        for (final String line : text.strip().split("\n", -1)) {
            lines.add(line.stripTrailing());
        }
        return String.join("\n", lines);
    }

    /** A table {@code sluice sql} printed, as the lines {@code --format csv} would print (NULL as DuckDB's text). */
    private static List<String> tableAsCsv(final String table) {
        final List<String> lines = new ArrayList<>();
        final String[] printed = table.strip().split("\n");
        for (int i = 0; i < printed.length - 1; i++) {
            if (i == 1) {
                continue;
            }
            final List<String> cells = new ArrayList<>();
            for (final String cell : printed[i].split("\\|", -1)) {
                cells.add(cell.isBlank() && i > 0 ? "null" : cell.strip());
            }
            lines.add(String.join(",", cells));
        }
        return lines;
    }

    @Test
    void everyCommandOfThePageRunsAndTheJoinGivesThePagesRowsAndDuckDbs() throws Exception {
        final int port;
        try (DatagramSocket free = new DatagramSocket(0)) {
            port = free.getLocalPort();
        }
        Files.createSymbolicLink(dir.resolve("bin"), BIN);
        final List<Step> steps = steps(Files.readAllLines(PAGE));
        assertThat(steps).as("the page's commands").extracting(Step::command)
                .anyMatch(c -> c.startsWith("bin/sluice gen ")).anyMatch(c -> c.startsWith("bin/sluice import "))
                .anyMatch(c -> c.contains(" cluster up ")).anyMatch(c -> c.contains("sql --coordinator"));
        String shownJoin = null;
        final List<Ran> joins = new ArrayList<>();
        Process cluster = null;
        try {
            for (final Step step : steps) {
                final String command = step.command().replace(PAGE_ADDRESS, "127.0.0.1:" + port);
                if (command.contains(" cluster up ")) {
                    cluster = startCluster(command, dir.resolve("cluster-up.log"));
                    continue;
                }
                final Ran ran = run(command);
                assertThat(ran.exitCode()).as("%s", ran).isZero();
                if (command.startsWith("bin/sluice import ")) {
                    assertThat(ran.out()).as("%s", ran).startsWith("imported 4 rows into table targets of store data/walk");
                }
                if (command.startsWith("bin/sluice sql ")) {
                    joins.add(ran);
                    if (step.shown() != null) {
                        shownJoin = step.shown();
                    }
                }
                if (command.startsWith("bin/sluice cluster status ")) {
                    assertThat(ran.out()).as("%s", ran).contains("2 CNs in the cluster of 127.0.0.1:" + port);
                }
            }
        } finally {
            if (cluster != null) {
                final List<ProcessHandle> cns = cluster.descendants().toList();
                cluster.destroy();
                assertThat(cluster.waitFor(60, TimeUnit.SECONDS)).as("cluster up stops on SIGTERM").isTrue();
                for (final ProcessHandle cn : cns) {
                    cn.onExit().get(60, TimeUnit.SECONDS);
                }
            }
        }
        assertThat(shownJoin).as("the page shows the join's rows").isNotNull();
        assertThat(joins).as("the join on one CN and on the cluster").hasSize(2);
        final List<String> duckDb;
        try (Connection duck = DuckDbLoader.openInMemory(1)) {
            DuckDbLoader.load(Store.open(dir.resolve("data/walk")), List.of("targets", "nation", "customer", "orders"),
                    duck);
            duckDb = DuckDbCsv.of(duck, Files.readString(dir.resolve("data/join.sql")));
        }
        for (final Ran join : joins) {
            assertThat(withoutTrailingBlanks(join.out())).as("%s", join).isEqualTo(withoutTrailingBlanks(shownJoin));
            assertThat(tableAsCsv(join.out())).as("DuckDB's rows: %s", join).isEqualTo(duckDb);
        }
    }
}
