package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.cli.MiniJson;
import io.sluice.perf.cli.SluiceCommand;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.net.DatagramSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CN started by hand next to {@code sluice cluster up}: it joins, and cluster up's log and
 * {@code cluster status} name it as started apart (with its pid, which CTRL-C on cluster up does not stop);
 * it outlives cluster up, and when the next cluster up listens on the same address it joins that one too,
 * named again rather than silently counted among the CNs cluster up started.
 */
class HandStartedCnTest {
    private static final Duration START = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private JavaProcess clusterUp(final Path store, final String address) {
        return JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx256m").args("cluster", "up", "--cn", "1", "--cores",
                "1", "--store", store.toString(), "--listen", address, "--jvm-arg=-Xmx256m").start();
    }

    @Test
    void aHandStartedCnIsNamedAsStartedApartByClusterUpAndStatusAndInTheNextClusterUp() throws Exception {
        final Path store = dir.resolve("store");
        try (Table ignored = TpchLoader.load(Store.create(store), TpchTable.REGION, 0.01, rows -> { })) {
            // any table will do: the CNs only join
        }
        final String address;
        try (DatagramSocket free = new DatagramSocket(0)) {
            address = "127.0.0.1:" + free.getLocalPort();
        }
        try (JavaProcess up = clusterUp(store, address);
             JavaProcess hand = JavaProcess.of(SluiceCommand.class).jvmArgs("-Xmx256m").args("cn", "--coordinator",
                     address, "--store", store.toString(), "--cores", "1", "--name", "hand").start()) {
            up.awaitLine(l -> l.startsWith("cluster up: 1 CN x 1 core, coordinator " + address), START);
            up.awaitLine(l -> l.startsWith("coordinator: cn hand joined from ") && l.endsWith("; it was started apart"
                    + " from this process (pid " + hand.pid() + "), which does not stop it"), START);

            final Cli.Result status = Cli.run("cluster", "status", "--coordinator", address);
            assertThat(status.exitCode()).as(status.toString()).isZero();
            assertThat(status.out().lines()).anyMatch(l -> l.startsWith("cn0 ") && l.endsWith("  with the coordinator"))
                    .anyMatch(l -> l.startsWith("hand ") && l.contains(" " + hand.pid() + " ") && l.endsWith("  apart"))
                    .contains("hand (pid " + hand.pid() + ") was started apart from the coordinator's process (sluice"
                            + " cluster up): stopping it does not stop that CN; stop it where it runs (CTRL-C, or kill"
                            + " PID on its host)");
            final Cli.Result json = Cli.run("cluster", "status", "--coordinator", address, "--json");
            final List<?> members = (List<?>) ((Map<?, ?>) MiniJson.parse(json.out()))
                    .get("members");
            assertThat(members).anySatisfy(m -> {
                assertThat(((Map<?, ?>) m).get("name")).isEqualTo("hand");
                assertThat(((Map<?, ?>) m).get("started_with_coordinator")).isEqualTo(false);
                assertThat(((Map<?, ?>) m).get("pid")).isEqualTo(new MiniJson.Num(Long.toString(hand.pid())));
            });
            assertThat(members).anySatisfy(m -> {
                assertThat(((Map<?, ?>) m).get("name")).isEqualTo("cn0");
                assertThat(((Map<?, ?>) m).get("started_with_coordinator")).isEqualTo(true);
            });

            up.signal("TERM");
            assertThat(up.awaitExit(START)).as("cluster up after SIGTERM").isEqualTo(143);
            hand.awaitLine(l -> l.contains("stopped; waiting for it to come back"), START);
            assertThat(hand.isAlive()).as("the hand-started CN outlives cluster up").isTrue();

            try (JavaProcess next = clusterUp(store, address)) {
                next.awaitLine(l -> l.startsWith("cluster up: 1 CN x 1 core, coordinator " + address), START);
                next.awaitLine(l -> l.startsWith("cluster up: the cluster also has 1 CN started apart")
                        && l.endsWith("hand (pid " + hand.pid() + " at " + l.substring(l.lastIndexOf(" at ") + 4))
                        || l.startsWith("coordinator: cn hand joined from ") && l.contains("started apart from this"
                        + " process (pid " + hand.pid() + ")"), START);
            }
        }
    }
}
