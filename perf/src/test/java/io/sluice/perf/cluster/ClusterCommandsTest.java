package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.cluster.ClusterContext;
import io.sluice.perf.cli.Cli;
import io.sluice.perf.cli.SluiceCommand;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.io.File;
import java.net.DatagramSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster's commands as a user meets them: every one has help; bad flags, a missing store and an
 * unreachable coordinator are one clear error line with exit code 1; {@code sluice cluster up} starts
 * a coordinator and CN processes that answer a query, and SIGTERM stops every one of them and leaves
 * no Aeron directory behind.
 */
class ClusterCommandsTest {
    @TempDir
    static Path dir;

    private static Path store;

    @BeforeAll
    static void generate() {
        store = dir.resolve("store");
        final Store s = Store.create(store);
        try (Table ignored = TpchLoader.load(s, TpchTable.LINEITEM, 0.01, rows -> { })) {
            // lineitem alone is what Q6 reads
        }
    }

    @Test
    void everyClusterCommandHasHelp() {
        for (final List<String> command : List.of(List.of("coordinator"), List.of("cn"), List.of("cluster"),
                List.of("cluster", "status"), List.of("cluster", "up"))) {
            final List<String> withHelp = new ArrayList<>(command);
            withHelp.add("--help");
            final String[] args = withHelp.toArray(String[]::new);
            final Cli.Result r = Cli.run(args);
            assertThat(r.exitCode()).as("%s --help: %s", command, r).isZero();
            assertThat(r.out()).as("%s --help", command).contains("Usage: sluice " + String.join(" ", command));
        }
        assertThat(Cli.run("cn", "--help").out()).contains("--coordinator", "--store", "--cores", "--bind", "--name")
                .doesNotContain("--parent-pid");
    }

    @Test
    void badFlagsAndAMissingStoreAreOneClearError() {
        final Cli.Result listen = Cli.run("coordinator", "--listen", "localhost", "--store", store.toString());
        assertThat(listen.exitCode()).isEqualTo(1);
        assertThat(listen.err()).startsWith("sluice coordinator: error: ").contains("is not HOST:PORT");
        final Cli.Result noStore = Cli.run("coordinator", "--listen", "127.0.0.1:0", "--store",
                dir.resolve("none").toString());
        assertThat(noStore.exitCode()).isEqualTo(1);
        assertThat(noStore.err()).contains("does not exist", "sluice gen");
        final Cli.Result cores = Cli.run("cn", "--coordinator", "127.0.0.1:7400", "--store", store.toString(),
                "--cores", "0");
        assertThat(cores.exitCode()).isEqualTo(1);
        assertThat(cores.err()).startsWith("sluice cn: error: --cores must be 1 or more");
        final Cli.Result up = Cli.run("cluster", "up", "--cn", "0", "--cores", "1", "--store", store.toString());
        assertThat(up.exitCode()).isEqualTo(1);
        assertThat(up.err()).startsWith("sluice cluster up: error: --cn must be 1..64");
        final Cli.Result neither = Cli.run("query", "--tpch", "2");
        assertThat(neither.exitCode()).isEqualTo(1);
        assertThat(neither.err()).contains("give --store DIR", "or --coordinator HOST:PORT");
    }

    @Test
    void anUnreachableCoordinatorIsAClearErrorNamingItsAddressAndWhatToStartThere() throws Exception {
        final int port;
        try (DatagramSocket free = new DatagramSocket(0)) {
            port = free.getLocalPort();
        }
        for (final String[] command : List.of(new String[] {"cluster", "status", "--coordinator", "127.0.0.1:" + port},
                new String[] {"sql", "--coordinator", "127.0.0.1:" + port, "--store", store.toString(),
                    "select count(*) from lineitem"})) {
            final Cli.Result r = Cli.run(command);
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).startsWith("sluice " + command[0] + (command[0].equals("cluster") ? " status" : "")
                    + ": error: no coordinator at 127.0.0.1:" + port + ": nothing received there within ")
                    .contains("sluice coordinator --listen 127.0.0.1:" + port + " --store DIR",
                            ClusterContext.CONNECT_TIMEOUT_PROP_NAME);
        }
    }

    @Test
    void clusterUpAnswersAQueryAndSigtermStopsEveryProcessItStarted() throws Exception {
        try (JavaProcess up = JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx256m")
                .args("cluster", "up", "--cn", "2", "--cores", "1", "--store", store.toString(), "--listen",
                        "127.0.0.1:0", "--jvm-arg=-Xmx256m").start()) {
            final String ready = up.awaitLine(l -> l.startsWith("cluster up: 2 CNs x 1 core,"), Duration.ofSeconds(60));
            final String address = ready.substring(ready.indexOf("coordinator ") + "coordinator ".length(),
                    ready.indexOf(';'));
            final Cli.Result q = Cli.run("query", "--coordinator", address, "--tpch", "6", "--format", "csv");
            assertThat(q.exitCode()).as(q.toString()).isZero();
            assertThat(q.out().lines()).hasSize(2).first().isEqualTo("revenue");

            final List<ProcessHandle> started = up.process().toHandle().descendants().toList();
            assertThat(started).as("CN processes of cluster up").hasSize(2);
            up.signal("TERM");
            assertThat(up.awaitExit(Duration.ofSeconds(60))).as("exit code after SIGTERM").isEqualTo(143);
            for (final ProcessHandle cn : started) {
                cn.onExit().get(30, TimeUnit.SECONDS);
                assertThat(cn.isAlive()).as("CN pid %d", cn.pid()).isFalse();
            }
            for (final long pid : new long[] {up.pid(), started.get(0).pid(), started.get(1).pid()}) {
                final File[] left = new File("/dev/shm").listFiles((d, name) -> name.startsWith("sluice-" + pid + "-"));
                assertThat(left).as("Aeron directories of pid %d", pid).isNullOrEmpty();
            }
        }
    }
}
