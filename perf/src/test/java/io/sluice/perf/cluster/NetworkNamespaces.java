package io.sluice.perf.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Separate network hosts on one Linux machine for multi-host tests: one network namespace per host, joined by a
 * bridge in the root namespace, each host with its own address in a private {@code 10.A.B.0/24}.
 *
 * <p>Host {@code i} is namespace {@code slc<pid>n<k>h<i>} with {@code lo} up and an {@code eth0} at
 * {@code 10.A.B.(i+1)/24}, the far end of a veth pair whose near end {@code slc<pid>v<n>} is a port of the bridge
 * {@code slc<pid>b<k>}; the bridge holds {@code 10.A.B.254/24}. The hosts reach one another through the bridge, and
 * the creating JVM (in the root namespace) reaches every host through the bridge address. {@code pid} is the
 * creating JVM's, {@code k} counts the instances it created and {@code n} its veth pairs, so every name fits the
 * 15 characters Linux allows an interface and tells which JVM made it.
 *
 * <p>Everything is removed by {@link #close()}, by a shutdown hook when close was never called, and, when the JVM
 * was killed before either could run, by the sweep at the start of the next {@link #create}: it removes the
 * namespaces and links with these name shapes whose pid no longer runs, and nothing else. Creating namespaces
 * needs root; tests call {@link #assumeAvailable()} first.
 */
public final class NetworkNamespaces implements AutoCloseable {
    /** The system property that turns "cannot create namespaces here" from a skipped test into a failed one. */
    public static final String REQUIRED_PROPERTY = "sluice.test.netns.required";

    /** Linux's limit on an interface name (IFNAMSIZ less the terminating zero). */
    static final int MAX_INTERFACE_NAME = 15;
    /** The most hosts one /24 holds next to the bridge's {@code .254}. */
    static final int MAX_HOSTS = 253;
    /** The interface every host sees its address on. */
    static final String HOST_INTERFACE = "eth0";

    private static final int BRIDGE_OCTET = 254;
    private static final int SUBNET_CANDIDATES = 16;
    private static final Pattern NAMESPACE_NAME = Pattern.compile("slc(\\d+)(?:n\\d+h\\d+|probe)");
    private static final Pattern LINK_NAME = Pattern.compile("slc(\\d+)[bv]\\d+");
    private static final Pattern IPV4_PREFIX =
            Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?:/(\\d{1,2}))?");
    private static final Set<String> ROUTE_TYPES = Set.of("unicast", "local", "broadcast", "multicast", "throw",
            "unreachable", "prohibit", "blackhole", "nat", "anycast");

    private static final long PID = ProcessHandle.current().pid();
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final AtomicInteger VETHS = new AtomicInteger();
    /** One create at a time per JVM, so two instances never pick the same free /24. */
    private static final Object CREATE_LOCK = new Object();
    private static final Set<NetworkNamespaces> OPEN = Collections.synchronizedSet(new LinkedHashSet<>());
    private static final AtomicBoolean HOOK_ADDED = new AtomicBoolean();
    private static volatile Availability availability;

    private final int hosts;
    private final int octetA;
    private final int octetB;
    private final String bridge;
    private final List<String> namespaces;
    /** What exists so far, in creation order, so that close and a failed create remove exactly that. */
    private final List<String> createdNamespaces = Collections.synchronizedList(new ArrayList<>());
    private final List<String> createdLinks = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Whether this process can create network namespaces here, and why not when it cannot. */
    public record Availability(boolean available, String reason) {
        static Availability yes() {
            return new Availability(true, "network namespaces can be created here");
        }

        static Availability no(final String reason) {
            return new Availability(false, reason);
        }
    }

    private NetworkNamespaces(final int hosts, final int instance, final int octetA, final int octetB) {
        this.hosts = hosts;
        this.octetA = octetA;
        this.octetB = octetB;
        this.bridge = interfaceName("slc" + PID + "b" + instance);
        final List<String> names = new ArrayList<>(hosts);
        for (int host = 0; host < hosts; host++) {
            names.add("slc" + PID + "n" + instance + "h" + host);
        }
        this.namespaces = List.copyOf(names);
    }

    /**
     * Creates {@code hosts} namespaces on one new bridge, after sweeping away what earlier, killed JVMs left.
     *
     * @throws IllegalStateException naming the command that failed and its stderr, once what was already made is
     *     removed again
     */
    public static NetworkNamespaces create(final int hosts) {
        return create(hosts, UnaryOperator.identity());
    }

    /** {@link #create(int)} with every creating command passed through {@code rewrite} first, to make one fail. */
    static NetworkNamespaces create(final int hosts, final UnaryOperator<List<String>> rewrite) {
        if (hosts < 1 || hosts > MAX_HOSTS) {
            throw new IllegalArgumentException("hosts must be 1.." + MAX_HOSTS + " (one /24 with the bridge at ."
                    + BRIDGE_OCTET + "), was " + hosts);
        }
        synchronized (CREATE_LOCK) {
            sweep();
            final int instance = INSTANCES.getAndIncrement();
            final int[] subnet = freeSubnet(instance);
            final NetworkNamespaces created = new NetworkNamespaces(hosts, instance, subnet[0], subnet[1]);
            addShutdownHookOnce();
            OPEN.add(created);
            try {
                created.build(rewrite);
                return created;
            } catch (final RuntimeException e) {
                try {
                    created.close();
                } catch (final RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
                throw e;
            }
        }
    }

    private void build(final UnaryOperator<List<String>> rewrite) {
        final String bridgeCidr = bridgeAddress() + "/24";
        createdLinks.add(bridge);
        step(rewrite, List.of("ip", "link", "add", bridge, "type", "bridge"));
        step(rewrite, List.of("ip", "addr", "add", bridgeCidr, "dev", bridge));
        step(rewrite, List.of("ip", "link", "set", bridge, "up"));
        for (int host = 0; host < hosts; host++) {
            final String namespace = namespaces.get(host);
            final String veth = interfaceName("slc" + PID + "v" + VETHS.getAndIncrement());
            createdNamespaces.add(namespace);
            step(rewrite, List.of("ip", "netns", "add", namespace));
            createdLinks.add(veth);
            step(rewrite, List.of("ip", "link", "add", veth, "type", "veth", "peer", "name", HOST_INTERFACE,
                    "netns", namespace));
            step(rewrite, List.of("ip", "link", "set", veth, "master", bridge));
            step(rewrite, List.of("ip", "link", "set", veth, "up"));
            step(rewrite, List.of("ip", "-n", namespace, "addr", "add", address(host) + "/24",
                    "dev", HOST_INTERFACE));
            step(rewrite, List.of("ip", "-n", namespace, "link", "set", HOST_INTERFACE, "up"));
            step(rewrite, List.of("ip", "-n", namespace, "link", "set", "lo", "up"));
        }
    }

    private void step(final UnaryOperator<List<String>> rewrite, final List<String> command) {
        final Commands.Result result = Commands.run(rewrite.apply(command));
        if (!result.succeeded()) {
            throw new IllegalStateException("cannot create network namespaces " + namespaces + " on bridge " + bridge
                    + ": " + result.describe());
        }
    }

    /** The number of hosts, numbered from 0. */
    public int hosts() {
        return hosts;
    }

    /** The namespace of {@code host}, as {@code ip netns} knows it. */
    public String name(final int host) {
        return namespaces.get(checkHost(host));
    }

    /** The address of {@code host} on its {@code eth0}: {@code 10.A.B.(host+1)}. */
    public String address(final int host) {
        return octets() + (checkHost(host) + 1);
    }

    /** The bridge's name in the root namespace. */
    public String bridgeName() {
        return bridge;
    }

    /** The bridge's address, which the root namespace reaches the hosts from: {@code 10.A.B.254}. */
    public String bridgeAddress() {
        return octets() + BRIDGE_OCTET;
    }

    /** The hosts' subnet, {@code 10.A.B.0/24}. */
    public String prefix() {
        return octets() + "0/24";
    }

    /** {@code command} run inside {@code host}'s namespace: {@code ip netns exec <namespace> command...}. */
    public List<String> command(final int host, final List<String> command) {
        if (closed.get()) {
            throw new IllegalStateException("network namespaces " + namespaces + " are closed; create new ones");
        }
        final List<String> inHost = new ArrayList<>(command.size() + 4);
        inHost.addAll(List.of("ip", "netns", "exec", name(host)));
        inHost.addAll(command);
        return List.copyOf(inHost);
    }

    /**
     * A process builder for {@code command} inside {@code host}'s namespace. {@code ip netns exec} execs the command
     * in its own process, so the started process's pid is the command's.
     */
    public ProcessBuilder processBuilder(final int host, final List<String> command) {
        return new ProcessBuilder(command(host, command));
    }

    /**
     * Removes the veth pairs, the namespaces and the bridge, tolerating any already gone; a second call does nothing.
     * Processes still running in a namespace keep it alive, nameless and unreachable, until they end.
     *
     * @throws IllegalStateException naming what could not be removed and why
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        OPEN.remove(this);
        final List<String> failures = new ArrayList<>();
        final List<String> links = snapshot(createdLinks);
        // Host-side veths first: deleting one deletes its peer inside the namespace too, even while processes
        // still hold the namespace open; the bridge goes last, once it has no ports.
        for (final String link : links) {
            if (!link.equals(bridge)) {
                removeLink(link, failures);
            }
        }
        for (final String namespace : snapshot(createdNamespaces)) {
            removeNamespace(namespace, failures);
        }
        if (links.contains(bridge)) {
            removeLink(bridge, failures);
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("could not remove all of network namespaces " + namespaces + " and bridge "
                    + bridge + " (remove them with `ip link del <name>` and `ip netns del <name>`): "
                    + String.join("; ", failures));
        }
    }

    @Override
    public String toString() {
        return "NetworkNamespaces" + namespaces + " on " + bridge + " " + prefix();
    }

    /**
     * Removes the namespaces and links named by this class for a pid that no longer runs, and returns their names.
     * Names of running pids (this JVM's included) and names of any other shape are left alone.
     */
    static List<String> sweep() {
        final List<String> removed = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        for (final String link : listLinks()) {
            final Matcher matcher = LINK_NAME.matcher(link);
            if (matcher.matches() && !running(matcher.group(1)) && removeLink(link, failures)) {
                removed.add(link);
            }
        }
        for (final String namespace : listNamespaces()) {
            final Matcher matcher = NAMESPACE_NAME.matcher(namespace);
            if (matcher.matches() && !running(matcher.group(1)) && removeNamespace(namespace, failures)) {
                removed.add(namespace);
            }
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("cannot remove network namespaces and links left by JVMs that no longer"
                    + " run (remove them with `ip link del <name>` and `ip netns del <name>`): "
                    + String.join("; ", failures));
        }
        return removed;
    }

    /**
     * Whether this process can create network namespaces here: Linux, root, {@code ip} on the PATH, and a probe
     * namespace holding a bridge and a veth pair actually added and deleted. Probed once per JVM.
     */
    public static Availability availability() {
        Availability known = availability;
        if (known == null) {
            synchronized (NetworkNamespaces.class) {
                known = availability;
                if (known == null) {
                    try {
                        known = probe();
                    } catch (final IllegalStateException e) {
                        known = Availability.no("probing for network namespaces failed: " + e.getMessage());
                    }
                    availability = known;
                }
            }
        }
        return known;
    }

    /**
     * Skips the calling test when namespaces cannot be created here, with the reason; fails it instead when the system
     * property {@value #REQUIRED_PROPERTY} is {@code true}, so that where they are required the test cannot
     * silently not run.
     */
    public static void assumeAvailable() {
        assumeAvailable(availability(), System.getProperty(REQUIRED_PROPERTY));
    }

    /** The decision of {@link #assumeAvailable()}, for a given availability and value of the property. */
    static void assumeAvailable(final Availability availability, final String required) {
        final boolean mustRun = required(required);
        if (availability.available()) {
            return;
        }
        if (mustRun) {
            Assertions.fail(availability.reason() + " (" + REQUIRED_PROPERTY + "=true: tests that need network"
                    + " namespaces must run here; run them as root, or leave the property false to skip them)");
        }
        Assumptions.abort(availability.reason() + " (set " + REQUIRED_PROPERTY + "=true to fail instead of skipping)");
    }

    static boolean required(final String value) {
        if (value == null || value.isBlank() || value.equalsIgnoreCase("false")) {
            return false;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        throw new IllegalArgumentException("system property " + REQUIRED_PROPERTY + " must be true or false, was '"
                + value + "'");
    }

    private static Availability probe() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return Availability.no("network namespaces need Linux, this is " + System.getProperty("os.name"));
        }
        final long uid = effectiveUid();
        if (uid != 0) {
            return Availability.no("creating network namespaces needs root, this process runs as uid " + uid);
        }
        try {
            final Commands.Result version = Commands.run(List.of("ip", "-V"));
            if (!version.succeeded()) {
                return Availability.no("`ip` (iproute2) does not work here: " + version.describe());
            }
        } catch (final IllegalStateException e) {
            return Availability.no("`ip` (iproute2) is needed to create network namespaces: " + e.getMessage());
        }
        final String namespace = "slc" + PID + "probe";
        final Commands.Result added = Commands.run(List.of("ip", "netns", "add", namespace));
        if (!added.succeeded()) {
            return Availability.no("cannot add a network namespace here: " + added.describe());
        }
        try {
            for (final List<String> command : List.of(
                    List.of("ip", "-n", namespace, "link", "add", "probebr", "type", "bridge"),
                    List.of("ip", "-n", namespace, "link", "add", "probev0", "type", "veth", "peer", "name", "probev1"),
                    List.of("ip", "-n", namespace, "link", "set", "probev0", "master", "probebr"))) {
                final Commands.Result result = Commands.run(command);
                if (!result.succeeded()) {
                    return Availability.no("cannot join network namespaces by a bridge here: " + result.describe());
                }
            }
        } finally {
            final Commands.Result deleted = Commands.run(List.of("ip", "netns", "del", namespace));
            if (!deleted.succeeded()) {
                throw new IllegalStateException("cannot delete the probe network namespace " + namespace + ": "
                        + deleted.describe());
            }
        }
        return Availability.yes();
    }

    private static long effectiveUid() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.substring("Uid:".length()).trim().split("\\s+")[1]);
                }
            }
        } catch (final IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the effective uid from /proc/self/status", e);
        }
        throw new IllegalStateException("/proc/self/status has no Uid: line");
    }

    /** A /24 in 10.0.0.0/8 that no address or route here overlaps, from candidates derived from the pid. */
    private static int[] freeSubnet(final int instance) {
        final List<int[]> taken = takenPrefixes();
        final SplittableRandom candidates = new SplittableRandom(PID * 1_000_003L + instance);
        final List<String> tried = new ArrayList<>();
        for (int i = 0; i < SUBNET_CANDIDATES; i++) {
            final int a = 1 + candidates.nextInt(254);
            final int b = candidates.nextInt(256);
            final int network = 10 << 24 | a << 16 | b << 8;
            boolean free = true;
            for (final int[] prefix : taken) {
                free &= !overlaps(network, 24, prefix[0], prefix[1]);
            }
            if (free) {
                return new int[] {a, b};
            }
            tried.add("10." + a + "." + b + ".0/24");
        }
        throw new IllegalStateException("no free /24 for network namespaces: every candidate " + tried
                + " overlaps an address or route here (see `ip -4 addr` and `ip -4 route show table all`)");
    }

    /** Every IPv4 address and route destination here as {network, prefix length}, the default route left out. */
    private static List<int[]> takenPrefixes() {
        final List<int[]> taken = new ArrayList<>();
        for (final String line : Commands.check(List.of("ip", "-4", "-o", "addr", "show")).split("\n")) {
            final String[] tokens = line.trim().split("\\s+");
            for (int i = 0; i + 1 < tokens.length; i++) {
                if (tokens[i].equals("inet") || tokens[i].equals("peer")) {
                    addPrefix(tokens[i + 1], taken);
                }
            }
        }
        for (final String line : Commands.check(List.of("ip", "-4", "route", "show", "table", "all")).split("\n")) {
            final String[] tokens = line.trim().split("\\s+");
            final int at = tokens.length > 1 && ROUTE_TYPES.contains(tokens[0]) ? 1 : 0;
            if (!tokens[at].equals("default")) {
                addPrefix(tokens[at], taken);
            }
        }
        return taken;
    }

    private static void addPrefix(final String text, final List<int[]> taken) {
        final Matcher matcher = IPV4_PREFIX.matcher(text);
        if (matcher.matches()) {
            final int network = Integer.parseInt(matcher.group(1)) << 24 | Integer.parseInt(matcher.group(2)) << 16
                    | Integer.parseInt(matcher.group(3)) << 8 | Integer.parseInt(matcher.group(4));
            taken.add(new int[] {network, matcher.group(5) == null ? 32 : Integer.parseInt(matcher.group(5))});
        }
    }

    static boolean overlaps(final int a, final int aLength, final int b, final int bLength) {
        final int length = Math.min(aLength, bLength);
        final int mask = length == 0 ? 0 : -1 << (32 - length);
        return (a & mask) == (b & mask);
    }

    /** The names of all namespaces {@code ip netns} knows. */
    static List<String> listNamespaces() {
        final List<String> names = new ArrayList<>();
        for (final String line : Commands.check(List.of("ip", "netns", "list")).split("\n")) {
            if (!line.isBlank()) {
                names.add(line.trim().split("\\s+")[0]);
            }
        }
        return names;
    }

    /** The names of all links in the root namespace, without their {@code @peer} suffix. */
    static List<String> listLinks() {
        final List<String> names = new ArrayList<>();
        for (final String line : Commands.check(List.of("ip", "-o", "link", "show")).split("\n")) {
            final String[] fields = line.split(": ", 3);
            if (fields.length >= 2) {
                final int at = fields[1].indexOf('@');
                names.add(at < 0 ? fields[1].trim() : fields[1].substring(0, at).trim());
            }
        }
        return names;
    }

    private static boolean removeLink(final String link, final List<String> failures) {
        return remove(List.of("ip", "link", "del", link), link, NetworkNamespaces::listLinks, failures);
    }

    private static boolean removeNamespace(final String namespace, final List<String> failures) {
        return remove(List.of("ip", "netns", "del", namespace), namespace, NetworkNamespaces::listNamespaces, failures);
    }

    /** Runs {@code delete}; its failure counts only while {@code name} still exists, since gone is what was wanted. */
    private static boolean remove(final List<String> delete, final String name, final Supplier<List<String>> existing,
            final List<String> failures) {
        final Commands.Result result = Commands.run(delete);
        if (result.succeeded()) {
            return true;
        }
        if (existing.get().contains(name)) {
            failures.add(result.describe());
        }
        return false;
    }

    private static boolean running(final String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
        } catch (final NumberFormatException e) {
            // More digits than a long holds: no process has that pid.
            return false;
        }
    }

    private static void addShutdownHookOnce() {
        if (HOOK_ADDED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(
                    new Thread(NetworkNamespaces::closeAllOpen, "remove network namespaces"));
        }
    }

    private static void closeAllOpen() {
        for (final NetworkNamespaces open : snapshot(OPEN)) {
            try {
                open.close();
            } catch (final RuntimeException e) {
                System.err.println("at exit: " + e.getMessage());
            }
        }
    }

    private static <T> List<T> snapshot(final Collection<T> synchronizedCollection) {
        synchronized (synchronizedCollection) {
            return new ArrayList<>(synchronizedCollection);
        }
    }

    private static String interfaceName(final String name) {
        if (name.length() > MAX_INTERFACE_NAME) {
            throw new IllegalStateException("interface name " + name + " is longer than the " + MAX_INTERFACE_NAME
                    + " characters Linux allows; this JVM has created too many network namespaces, start a new one");
        }
        return name;
    }

    private int checkHost(final int host) {
        if (host < 0 || host >= hosts) {
            throw new IndexOutOfBoundsException("host " + host + " is not one of the " + hosts + " hosts 0.."
                    + (hosts - 1) + " of " + this);
        }
        return host;
    }

    private String octets() {
        return "10." + octetA + "." + octetB + ".";
    }
}
