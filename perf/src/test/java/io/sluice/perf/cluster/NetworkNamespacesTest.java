package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hosts as network namespaces: reachable from one another and from this JVM, each with its own address, and removed
 * without leftovers.
 */
class NetworkNamespacesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String[] SMALL_JVM = {"-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"};
    private static final long PID = ProcessHandle.current().pid();

    @BeforeEach
    void namespacesCanBeCreatedHere() {
        NetworkNamespaces.assumeAvailable();
    }

    @Test
    void jvmsInTwoHostsAndThisJvmExchangeDatagramsThroughTheBridge() throws Exception {
        final String nonce = Long.toHexString(ThreadLocalRandom.current().nextLong());
        try (NetworkNamespaces hosts = NetworkNamespaces.create(3);
             JavaProcess echo = JavaProcess.of(UdpEchoMain.class).jvmArgs(SMALL_JVM).args(hosts.address(0))
                     .startIn(hosts, 0)) {
            final String listening = echo.awaitLine(line -> line.startsWith(UdpEchoMain.LISTENING), TIMEOUT);
            assertThat(listening).startsWith(UdpEchoMain.LISTENING + hosts.address(0) + ":");
            final int port = Integer.parseInt(listening.substring(listening.lastIndexOf(':') + 1));
            assertThat(echo.awaitLine(line -> line.startsWith(UdpEchoMain.PID), TIMEOUT))
                    .as("ip netns exec execs the JVM, so the pid held is the JVM's own")
                    .isEqualTo(UdpEchoMain.PID + echo.pid());

            final String fromHost2 = "from-host-2-" + nonce;
            try (JavaProcess client = JavaProcess.of(UdpEchoClientMain.class).jvmArgs(SMALL_JVM)
                    .args(hosts.address(0), Integer.toString(port), fromHost2).startIn(hosts, 2)) {
                assertThat(client.awaitLine(line -> line.startsWith(UdpEchoClientMain.REPLY), TIMEOUT))
                        .isEqualTo(UdpEchoClientMain.REPLY + fromHost2 + " from " + hosts.address(0) + ":" + port);
                assertThat(client.awaitExit(TIMEOUT)).isZero();
            }
            assertThat(echo.awaitLine(line -> line.startsWith(UdpEchoMain.ECHOED + fromHost2), TIMEOUT))
                    .isEqualTo(UdpEchoMain.ECHOED + fromHost2 + " from " + hosts.address(2));

            final String fromRoot = "from-the-root-namespace-" + nonce;
            assertThat(UdpEchoClientMain.exchange(new InetSocketAddress(hosts.address(0), port), fromRoot, TIMEOUT))
                    .isEqualTo(UdpEchoClientMain.REPLY + fromRoot + " from " + hosts.address(0) + ":" + port);
            assertThat(echo.awaitLine(line -> line.startsWith(UdpEchoMain.ECHOED + fromRoot), TIMEOUT))
                    .isEqualTo(UdpEchoMain.ECHOED + fromRoot + " from " + hosts.bridgeAddress());
        }
    }

    @Test
    void everyHostHasItsOwnAddressInThePrefixAndSeesOnlyThat() throws Exception {
        try (NetworkNamespaces hosts = NetworkNamespaces.create(3)) {
            assertThat(hosts.prefix()).matches("10\\.\\d{1,3}\\.\\d{1,3}\\.0/24");
            final String network = hosts.prefix().substring(0, hosts.prefix().length() - "0/24".length());
            final List<String> addresses = new ArrayList<>();
            for (int host = 0; host < hosts.hosts(); host++) {
                addresses.add(hosts.address(host));
            }
            assertThat(new HashSet<>(addresses)).hasSize(3);
            assertThat(addresses).allSatisfy(address -> assertThat(address).startsWith(network));
            assertThat(hosts.bridgeAddress()).startsWith(network).isNotIn(addresses);

            for (int host = 0; host < hosts.hosts(); host++) {
                final String shown = Commands.check(hosts.command(host, List.of("ip", "-4", "-o", "addr", "show")));
                assertThat(addressesByInterface(shown)).as("IPv4 addresses seen inside " + hosts.name(host))
                        .isEqualTo(Map.of("lo", List.of("127.0.0.1/8"),
                                NetworkNamespaces.HOST_INTERFACE, List.of(hosts.address(host) + "/24")));
            }
            assertThatThrownBy(() -> new DatagramSocket(new InetSocketAddress(hosts.address(0), 0)).close())
                    .as("a host's address is not this JVM's")
                    .isInstanceOf(BindException.class);
        }
    }

    @Test
    void closeLeavesNothingNamedForThisJvmAndASecondCloseIsHarmless() {
        final NetworkNamespaces hosts = NetworkNamespaces.create(3);
        final List<String> made = leftoversOf(PID);
        assertThat(made).contains(hosts.name(0), hosts.name(1), hosts.name(2), hosts.bridgeName());
        assertThat(made.stream().filter(name -> name.startsWith("slc" + PID + "v"))).hasSize(3);

        hosts.close();
        assertThat(leftoversOf(PID)).isEmpty();
        assertThatCode(hosts::close).doesNotThrowAnyException();
        assertThatThrownBy(() -> hosts.command(0, List.of("true"))).hasMessageContaining("closed");
    }

    @Test
    void aFailureHalfWayRemovesWhatWasMadeAndNamesTheCommandAndItsError() {
        final AtomicInteger hostAddresses = new AtomicInteger();
        assertThatThrownBy(() -> NetworkNamespaces.create(3, command -> {
            if (command.contains("-n") && command.contains("addr") && hostAddresses.getAndIncrement() == 1) {
                final List<String> broken = new ArrayList<>(command);
                broken.set(broken.indexOf("add") + 1, "10.300.0.1/24");
                return broken;
            }
            return command;
        }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("addr add 10.300.0.1/24 dev eth0` exited with ")
                .message().doesNotEndWith("printed nothing on stderr");
        assertThat(hostAddresses).as("commands that add a host address").hasValue(2);
        assertThat(leftoversOf(PID)).isEmpty();
    }

    @Test
    void theSweepRemovesWhatADeadPidLeftAndLeavesLivePidsAndOtherNamesAlone() throws Exception {
        final Process finished = new ProcessBuilder("true").start();
        assertThat(finished.waitFor(10, TimeUnit.SECONDS)).isTrue();
        final long dead = finished.pid();
        final Process live = new ProcessBuilder("cat").start();
        final String deadNamespace = "slc" + dead + "n0h0";
        final String deadVeth = "slc" + dead + "v0";
        final String deadBridge = "slc" + dead + "b0";
        final String otherShape = "slc" + dead + "x";
        final String liveNamespace = "slc" + live.pid() + "n0h0";
        try {
            Commands.check(List.of("ip", "netns", "add", deadNamespace));
            Commands.check(List.of("ip", "link", "add", deadVeth, "type", "veth", "peer", "name", "eth0",
                    "netns", deadNamespace));
            Commands.check(List.of("ip", "link", "add", deadBridge, "type", "bridge"));
            Commands.check(List.of("ip", "netns", "add", otherShape));
            Commands.check(List.of("ip", "netns", "add", liveNamespace));

            assertThat(NetworkNamespaces.sweep()).contains(deadNamespace, deadVeth, deadBridge)
                    .doesNotContain(otherShape, liveNamespace);
            assertThat(leftoversOf(dead)).containsExactly(otherShape);
            assertThat(leftoversOf(live.pid())).containsExactly(liveNamespace);
        } finally {
            for (final String namespace : List.of(deadNamespace, otherShape, liveNamespace)) {
                Commands.run(List.of("ip", "netns", "del", namespace));
            }
            Commands.run(List.of("ip", "link", "del", deadBridge));
            live.destroyForcibly();
            live.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(leftoversOf(dead)).isEmpty();
        assertThat(leftoversOf(live.pid())).isEmpty();
    }

    @Test
    void aJvmThatNeverClosesItsNamespacesLeavesNothingBehindWhenItExits() {
        try (JavaProcess child = JavaProcess.of(UnclosedNamespacesMain.class).jvmArgs(SMALL_JVM).args("2", "exit")
                .start()) {
            final String created = child.awaitLine(line -> line.startsWith(UnclosedNamespacesMain.CREATED), TIMEOUT);
            assertThat(created.split(" ")).hasSize(3);
            assertThat(child.awaitExit(TIMEOUT)).as(String.join("\n", child.stderr())).isZero();
            assertThat(leftoversOf(child.pid())).isEmpty();
        }
    }

    @Test
    void whatAKilledJvmLeftIsRemovedByTheNextSweep() {
        try (JavaProcess child = JavaProcess.of(UnclosedNamespacesMain.class).jvmArgs(SMALL_JVM).args("2", "wait")
                .start()) {
            final String created = child.awaitLine(line -> line.startsWith(UnclosedNamespacesMain.CREATED), TIMEOUT);
            final List<String> namespaces =
                    List.of(created.substring(UnclosedNamespacesMain.CREATED.length()).split(" "));
            assertThat(namespaces).hasSize(2);

            child.signal("KILL");
            assertThat(child.awaitExit(TIMEOUT)).as("exit code after KILL").isEqualTo(128 + 9);
            final List<String> left = leftoversOf(child.pid());
            assertThat(left).as("a killed JVM cannot clean up").containsAll(namespaces).hasSize(2 + 1 + 2);

            assertThat(NetworkNamespaces.sweep()).containsAll(left);
            assertThat(leftoversOf(child.pid())).isEmpty();
        }
    }

    /** Namespaces and root-namespace links named for {@code pid}, read from {@code ip} directly. */
    private static List<String> leftoversOf(final long pid) {
        final List<String> names = new ArrayList<>();
        for (final String line : Commands.check(List.of("ip", "netns", "list")).split("\n")) {
            names.add(line.trim().split(" ")[0]);
        }
        for (final String line : Commands.check(List.of("ip", "-o", "link")).split("\n")) {
            final String[] fields = line.split(": ");
            if (fields.length > 1) {
                names.add(fields[1].split("@")[0]);
            }
        }
        return names.stream().filter(name -> name.matches("slc" + pid + "\\D.*")).toList();
    }

    /** {@code ip -4 -o addr show} as interface to its addresses. */
    private static Map<String, List<String>> addressesByInterface(final String shown) {
        final Map<String, List<String>> addresses = new TreeMap<>();
        for (final String line : shown.split("\n")) {
            final String[] tokens = line.trim().split("\\s+");
            if (tokens.length > 3 && tokens[2].equals("inet")) {
                addresses.computeIfAbsent(tokens[1], name -> new ArrayList<>()).add(tokens[3]);
            }
        }
        return addresses;
    }
}
