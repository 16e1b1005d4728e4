package io.sluice.transport;

import io.aeron.driver.ThreadingMode;
import java.io.File;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.agrona.SystemUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * Configuration of the transport of one CN process: where the media driver lives, how its threads
 * idle, the log buffer and UDP sizes, and the timeouts, with the defaults measured on a small
 * machine (see the constants) and each overridable by a {@code sluice.transport.*} system property
 * or a fluent setter.
 *
 * <p>Read once when constructed; set what differs, then hand it to {@link EmbeddedDriver#launch}.
 * Not thread-safe.
 */
public final class TransportContext {
    /** Folder under which each driver makes its own directory. */
    public static final String DIR_PROP_NAME = "sluice.transport.dir";
    /** Driver threading mode: SHARED (one thread, for small machines), SHARED_NETWORK or DEDICATED. */
    public static final String THREADING_MODE_PROP_NAME = "sluice.transport.threading.mode";
    /** Idle strategy of the driver threads and of waiting senders: backoff, yielding or sleeping. */
    public static final String IDLE_STRATEGY_PROP_NAME = "sluice.transport.idle.strategy";
    /**
     * How long the driver threads and control loops of a quiet process park between looks for work
     * (0: as long as an active one, at most 1 ms); see {@link ProcessActivity}.
     */
    public static final String IDLE_QUIET_PARK_PROP_NAME = "sluice.transport.idle.quiet.park";
    /** How long after its last work (a query, a client's request) a process counts as quiet. */
    public static final String IDLE_QUIET_AFTER_PROP_NAME = "sluice.transport.idle.quiet.after";
    /** Term length of every publication, UDP and IPC; a message may be at most an eighth of it. */
    public static final String TERM_LENGTH_PROP_NAME = "sluice.transport.term.length";
    /**
     * UDP datagram length; 65504 only suits loopback and jumbo frames. Unset, publications to loopback
     * use 65504 and those to other hosts {@link #MTU_LENGTH_NETWORK} ({@link #mtuLengthFor}).
     */
    public static final String MTU_LENGTH_PROP_NAME = "sluice.transport.mtu.length";
    /** UDP receiver window: how many bytes a sender may have in flight to one receiver. */
    public static final String RECEIVER_WINDOW_PROP_NAME = "sluice.transport.receiver.window";
    /** SO_RCVBUF of UDP sockets; the kernel caps it at net.core.rmem_max. */
    public static final String SOCKET_RCVBUF_PROP_NAME = "sluice.transport.socket.rcvbuf";
    /** SO_SNDBUF of UDP sockets; the kernel caps it at net.core.wmem_max. */
    public static final String SOCKET_SNDBUF_PROP_NAME = "sluice.transport.socket.sndbuf";
    /** How long a client (and the driver, seen from a client) may be silent before it is dropped. */
    public static final String CLIENT_LIVENESS_TIMEOUT_PROP_NAME = "sluice.transport.client.liveness.timeout";
    /** How long a publication blocked by a stalled sender waits before the driver unblocks it. */
    public static final String PUBLICATION_UNBLOCK_TIMEOUT_PROP_NAME = "sluice.transport.publication.unblock.timeout";
    /** How long a send waits for a subscriber to connect before it fails. */
    public static final String CONNECT_TIMEOUT_PROP_NAME = "sluice.transport.connect.timeout";
    /** How long a send waits on a connected receiver that consumes nothing before it fails. */
    public static final String STALL_TIMEOUT_PROP_NAME = "sluice.transport.stall.timeout";

    /** 2 MiB: measured with 64 KiB MTU on loopback; 128 KiB (Aeron's default) made UDP 12x slower. */
    public static final int RECEIVER_WINDOW_DEFAULT = 2 * 1024 * 1024;
    /** 65504: the largest MTU Aeron takes (a multiple of 32 under 64 KiB). */
    public static final int MTU_LENGTH_DEFAULT = 65504;
    /** 1408: Aeron's default, a datagram that fits a 1500-byte Ethernet frame without IP fragmentation. */
    public static final int MTU_LENGTH_NETWORK = 1408;
    /** 4 MiB: net.core.rmem_max and wmem_max on the reference machine. */
    public static final int SOCKET_BUFFER_DEFAULT = 4 * 1024 * 1024;
    /** 16 MiB: messages up to 2 MiB; three terms (48 MiB of /dev/shm) per publication. */
    public static final int TERM_LENGTH_DEFAULT = 16 * 1024 * 1024;
    /** 30 s: survives a 12 s stall that tripped Aeron's default of 10 s. */
    public static final long CLIENT_LIVENESS_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(30);
    /** 45 s: the driver requires it to exceed the client liveness timeout. */
    public static final long PUBLICATION_UNBLOCK_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(45);
    /** 10 s: ample for a CN to start its driver and subscribe. */
    public static final long CONNECT_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);
    /** 120 s: far beyond any back pressure a working receiver exerts, short of a silent hang. */
    public static final long STALL_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(120);

    /**
     * 100 ms: an idle process's driver, Aeron client conductor and control loop wake 10 times a second
     * each, not 60 to 1000 (a wake-up costs 30-100 µs of CPU on a small virtual machine); peers ring a
     * {@link Doorbell} before new work, so the first query after idling does not wait for the park.
     */
    public static final long IDLE_QUIET_PARK_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** 1 s: between the queries of a running benchmark or test, a process stays active. */
    public static final long IDLE_QUIET_AFTER_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

    /** How threads wait when there is nothing to do; busy spinning is deliberately not offered. */
    public enum IdleKind {
        /** Spin a little, yield a little, then park from 1 us up to 1 ms. */
        BACKOFF(() -> new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1))),
        /** Thread.yield between attempts: lowest latency short of spinning, costs a core when idle. */
        YIELDING(YieldingIdleStrategy::new),
        /** Sleep 1 ms between attempts: for machines with many more drivers than cores. */
        SLEEPING(() -> new SleepingMillisIdleStrategy(1));

        private final Supplier<IdleStrategy> factory;

        IdleKind(final Supplier<IdleStrategy> factory) {
            this.factory = factory;
        }

        /** A new idle strategy of this kind; each thread needs its own. */
        public IdleStrategy newIdleStrategy() {
            return factory.get();
        }
    }

    private File baseDirectory;
    private ThreadingMode threadingMode;
    private IdleKind idleKind;
    private long idleQuietParkNs;
    private ProcessActivity activity;
    private int termLength;
    private int mtuLength;
    private boolean mtuLengthSet;
    private int receiverWindow;
    private int socketRcvbufLength;
    private int socketSndbufLength;
    private long clientLivenessTimeoutNs;
    private long publicationUnblockTimeoutNs;
    private long connectTimeoutNs;
    private long stallTimeoutNs;

    /** A context with the defaults, overridden by any {@code sluice.transport.*} system property set. */
    public TransportContext() {
        baseDirectory = new File(System.getProperty(DIR_PROP_NAME, defaultBaseDirectory()));
        threadingMode = parseEnum(ThreadingMode.class, THREADING_MODE_PROP_NAME, ThreadingMode.SHARED);
        idleKind = parseEnum(IdleKind.class, IDLE_STRATEGY_PROP_NAME, IdleKind.BACKOFF);
        idleQuietParkNs = SystemUtil.getDurationInNanos(IDLE_QUIET_PARK_PROP_NAME, IDLE_QUIET_PARK_DEFAULT_NS);
        final long quietAfterNs = SystemUtil.getDurationInNanos(IDLE_QUIET_AFTER_PROP_NAME, IDLE_QUIET_AFTER_DEFAULT_NS);
        activity = quietAfterNs == IDLE_QUIET_AFTER_DEFAULT_NS ? ProcessActivity.PROCESS : new ProcessActivity(quietAfterNs);
        termLength = SystemUtil.getSizeAsInt(TERM_LENGTH_PROP_NAME, TERM_LENGTH_DEFAULT);
        mtuLength = SystemUtil.getSizeAsInt(MTU_LENGTH_PROP_NAME, MTU_LENGTH_DEFAULT);
        mtuLengthSet = System.getProperty(MTU_LENGTH_PROP_NAME) != null;
        receiverWindow = SystemUtil.getSizeAsInt(RECEIVER_WINDOW_PROP_NAME, RECEIVER_WINDOW_DEFAULT);
        socketRcvbufLength = SystemUtil.getSizeAsInt(SOCKET_RCVBUF_PROP_NAME, SOCKET_BUFFER_DEFAULT);
        socketSndbufLength = SystemUtil.getSizeAsInt(SOCKET_SNDBUF_PROP_NAME, SOCKET_BUFFER_DEFAULT);
        clientLivenessTimeoutNs = SystemUtil.getDurationInNanos(CLIENT_LIVENESS_TIMEOUT_PROP_NAME,
                CLIENT_LIVENESS_TIMEOUT_DEFAULT_NS);
        publicationUnblockTimeoutNs = SystemUtil.getDurationInNanos(PUBLICATION_UNBLOCK_TIMEOUT_PROP_NAME,
                PUBLICATION_UNBLOCK_TIMEOUT_DEFAULT_NS);
        connectTimeoutNs = SystemUtil.getDurationInNanos(CONNECT_TIMEOUT_PROP_NAME, CONNECT_TIMEOUT_DEFAULT_NS);
        stallTimeoutNs = SystemUtil.getDurationInNanos(STALL_TIMEOUT_PROP_NAME, STALL_TIMEOUT_DEFAULT_NS);
    }

    /** /dev/shm where it exists (Linux): the log buffers then never touch a disk. */
    private static String defaultBaseDirectory() {
        final File shm = new File("/dev/shm");
        return SystemUtil.isLinux() && shm.isDirectory() ? shm.getPath() : System.getProperty("java.io.tmpdir");
    }

    private static <E extends Enum<E>> E parseEnum(final Class<E> type, final String property, final E fallback) {
        final String value = System.getProperty(property);
        if (value == null) {
            return fallback;
        }
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("-D" + property + "=" + value + " is not one of "
                    + java.util.Arrays.toString(type.getEnumConstants()), e);
        }
    }

    /**
     * Checks the values fit together, naming the setting to change when they do not.
     *
     * @return this
     */
    public TransportContext validate() {
        if (termLength < 64 * 1024 || termLength > 1024 * 1024 * 1024 || Integer.bitCount(termLength) != 1) {
            throw new IllegalArgumentException("term length " + termLength + " must be a power of two from 64 KiB to 1 GiB ("
                    + TERM_LENGTH_PROP_NAME + ")");
        }
        if (mtuLength < 64 || mtuLength > MTU_LENGTH_DEFAULT || (mtuLength & 31) != 0) {
            throw new IllegalArgumentException("MTU " + mtuLength + " must be a multiple of 32 from 64 to "
                    + MTU_LENGTH_DEFAULT + " (" + MTU_LENGTH_PROP_NAME + ")");
        }
        if (mtuLength > termLength / 8) {
            throw new IllegalArgumentException("MTU " + mtuLength + " exceeds the max message length " + (termLength / 8)
                    + " of term length " + termLength + ": lower " + MTU_LENGTH_PROP_NAME + " or raise "
                    + TERM_LENGTH_PROP_NAME);
        }
        if (publicationUnblockTimeoutNs <= clientLivenessTimeoutNs) {
            throw new IllegalArgumentException("publication unblock timeout " + publicationUnblockTimeoutNs
                    + " ns must exceed the client liveness timeout " + clientLivenessTimeoutNs + " ns ("
                    + PUBLICATION_UNBLOCK_TIMEOUT_PROP_NAME + ", " + CLIENT_LIVENESS_TIMEOUT_PROP_NAME + ")");
        }
        if (idleQuietParkNs < 0 || idleQuietParkNs > TimeUnit.SECONDS.toNanos(1)) {
            throw new IllegalArgumentException("quiet park " + idleQuietParkNs + " ns must be from 0 to 1 s ("
                    + IDLE_QUIET_PARK_PROP_NAME + ")");
        }
        if (stallTimeoutNs <= 0) {
            throw new IllegalArgumentException("stall timeout " + stallTimeoutNs + " ns must be positive ("
                    + STALL_TIMEOUT_PROP_NAME + ")");
        }
        if (connectTimeoutNs <= 0) {
            throw new IllegalArgumentException("connect timeout " + connectTimeoutNs + " ns must be positive ("
                    + CONNECT_TIMEOUT_PROP_NAME + ")");
        }
        return this;
    }

    /** Folder under which each driver makes its own directory (default /dev/shm on Linux). */
    public File baseDirectory() {
        return baseDirectory;
    }

    public TransportContext baseDirectory(final File baseDirectory) {
        this.baseDirectory = baseDirectory;
        return this;
    }

    /** Driver threading mode (default SHARED: one driver thread, right for 2 to 4 cores). */
    public ThreadingMode threadingMode() {
        return threadingMode;
    }

    public TransportContext threadingMode(final ThreadingMode threadingMode) {
        this.threadingMode = threadingMode;
        return this;
    }

    /** How driver threads and waiting senders idle (default BACKOFF). */
    public IdleKind idleKind() {
        return idleKind;
    }

    public TransportContext idleKind(final IdleKind idleKind) {
        this.idleKind = idleKind;
        return this;
    }

    /**
     * A new idle strategy for a thread that waits for work for the life of the process (a driver
     * thread, a control loop): of the idle kind, parking {@link #idleQuietParkNs} once the process is quiet.
     *
     * @param maxParkNs the longest park of a BACKOFF strategy while the process is active
     */
    public IdleStrategy newLongLivedIdleStrategy(final long maxParkNs) {
        return idleKind == IdleKind.BACKOFF ? new QuietIdleStrategy(activity, maxParkNs, idleQuietParkNs)
                : idleKind.newIdleStrategy();
    }

    /** How long a quiet process's long-lived threads park (default 100 ms; 0: no longer than an active one's). */
    public long idleQuietParkNs() {
        return idleQuietParkNs;
    }

    public TransportContext idleQuietParkNs(final long idleQuietParkNs) {
        this.idleQuietParkNs = idleQuietParkNs;
        return this;
    }

    /** Whether the process has work under way (default: the process-wide {@link ProcessActivity#PROCESS}). */
    public ProcessActivity activity() {
        return activity;
    }

    public TransportContext activity(final ProcessActivity activity) {
        this.activity = activity;
        return this;
    }

    /** Term length of every publication (default 16 MiB); messages may be an eighth of it. */
    public int termLength() {
        return termLength;
    }

    public TransportContext termLength(final int termLength) {
        this.termLength = termLength;
        return this;
    }

    /** UDP MTU (default 65504, for loopback and jumbo frames). */
    public int mtuLength() {
        return mtuLength;
    }

    public TransportContext mtuLength(final int mtuLength) {
        this.mtuLength = mtuLength;
        this.mtuLengthSet = true;
        return this;
    }

    /**
     * The MTU of a publication to {@code host}: the one set, if set; else the loopback maximum for a
     * loopback address and {@link #MTU_LENGTH_NETWORK} for any other, so that datagrams between hosts
     * are never IP-fragmented (one lost fragment would lose the whole datagram).
     */
    public int mtuLengthFor(final java.net.InetAddress host) {
        if (mtuLengthSet) {
            return mtuLength;
        }
        return host.isLoopbackAddress() ? mtuLength : MTU_LENGTH_NETWORK;
    }

    /** UDP receiver window (default 2 MiB; the driver caps it at half the term length). */
    public int receiverWindow() {
        return receiverWindow;
    }

    public TransportContext receiverWindow(final int receiverWindow) {
        this.receiverWindow = receiverWindow;
        return this;
    }

    /** SO_RCVBUF of UDP sockets (default 4 MiB). */
    public int socketRcvbufLength() {
        return socketRcvbufLength;
    }

    public TransportContext socketRcvbufLength(final int socketRcvbufLength) {
        this.socketRcvbufLength = socketRcvbufLength;
        return this;
    }

    /** SO_SNDBUF of UDP sockets (default 4 MiB). */
    public int socketSndbufLength() {
        return socketSndbufLength;
    }

    public TransportContext socketSndbufLength(final int socketSndbufLength) {
        this.socketSndbufLength = socketSndbufLength;
        return this;
    }

    /** Client liveness timeout, also the client's driver timeout (default 30 s). */
    public long clientLivenessTimeoutNs() {
        return clientLivenessTimeoutNs;
    }

    public TransportContext clientLivenessTimeoutNs(final long clientLivenessTimeoutNs) {
        this.clientLivenessTimeoutNs = clientLivenessTimeoutNs;
        return this;
    }

    /** Publication unblock timeout (default 45 s; must exceed the client liveness timeout). */
    public long publicationUnblockTimeoutNs() {
        return publicationUnblockTimeoutNs;
    }

    public TransportContext publicationUnblockTimeoutNs(final long publicationUnblockTimeoutNs) {
        this.publicationUnblockTimeoutNs = publicationUnblockTimeoutNs;
        return this;
    }

    /** How long a send waits for a subscriber before failing (default 10 s). */
    public long connectTimeoutNs() {
        return connectTimeoutNs;
    }

    public TransportContext connectTimeoutNs(final long connectTimeoutNs) {
        this.connectTimeoutNs = connectTimeoutNs;
        return this;
    }

    /** How long a send waits on back pressure from a connected receiver before failing (default 120 s). */
    public long stallTimeoutNs() {
        return stallTimeoutNs;
    }

    public TransportContext stallTimeoutNs(final long stallTimeoutNs) {
        this.stallTimeoutNs = stallTimeoutNs;
        return this;
    }

    @Override
    public String toString() {
        return "TransportContext{baseDirectory=" + baseDirectory + ", threadingMode=" + threadingMode
                + ", idleKind=" + idleKind + ", idleQuietParkNs=" + idleQuietParkNs + ", termLength=" + termLength + ", mtuLength=" + mtuLength
                + ", receiverWindow=" + receiverWindow + ", socketRcvbufLength=" + socketRcvbufLength
                + ", socketSndbufLength=" + socketSndbufLength + ", clientLivenessTimeoutNs=" + clientLivenessTimeoutNs
                + ", publicationUnblockTimeoutNs=" + publicationUnblockTimeoutNs
                + ", connectTimeoutNs=" + connectTimeoutNs + ", stallTimeoutNs=" + stallTimeoutNs + '}';
    }
}
