package io.sluice.dispatch;

import io.sluice.transport.TransportContext;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.agrona.SystemUtil;
import org.agrona.concurrent.IdleStrategy;

/**
 * Settings of the dispatch layer, each with a documented default overridable by a
 * {@code sluice.dispatch.*} system property or a fluent setter. Read once when constructed.
 */
public final class DispatchContext {
    /** Batches a local destination's queue holds before its senders wait (back pressure). */
    public static final String QUEUE_CAPACITY_PROP_NAME = "sluice.dispatch.queue.capacity";
    /**
     * How long a receiver waits without hearing from its senders (a batch, an end-of-stream or a
     * heartbeat) before it fails naming the silent CNs.
     */
    public static final String SENDER_TIMEOUT_PROP_NAME = "sluice.dispatch.sender.timeout";
    /**
     * How often a sender that is busy elsewhere (sending to other destinations, or waiting on a full
     * queue, a back-pressured stream, a CN not yet connected) or sends only empty batches tells its
     * other receivers it is alive, so that a slow sender is not taken for a dead one. Must be below the
     * sender timeout, best a small fraction of it. A CN whose stream went unpolled for longer than this
     * was not listening: its receivers' sender timeout starts again.
     */
    public static final String HEARTBEAT_INTERVAL_PROP_NAME = "sluice.dispatch.heartbeat.interval";
    /**
     * How long a sender keeps retrying a CN whose stream was connected and no longer is (the CN closed
     * or died) before it fails.
     */
    public static final String DISCONNECT_TIMEOUT_PROP_NAME = "sluice.dispatch.disconnect.timeout";
    /**
     * How long a CN keeps the frames of a destination whose source has not opened yet before it
     * discards them (the source then fails when it opens), and remembers a closed destination so that
     * frames still arriving for it are dropped.
     */
    public static final String ROUTE_RETENTION_PROP_NAME = "sluice.dispatch.route.retention";
    /**
     * Batches each sending CN may have in flight to one remote destination of an exchange before the
     * destination has consumed some (credit, granted back as it consumes): bounds what waits in a
     * receiver's inbox to window x sending CNs batches per destination.
     */
    public static final String CREDIT_WINDOW_PROP_NAME = "sluice.dispatch.credit.window";
    /**
     * Bytes of frames a CN keeps for destinations whose source has not opened yet, over all of them:
     * beyond it, such frames are dropped and counted (credit bounds what genuine senders send early,
     * so only a flood reaches it).
     */
    public static final String PENDING_BYTES_PROP_NAME = "sluice.dispatch.pending.bytes";
    /** Aeron fragments a CN reads from its stream per poll. */
    public static final String FRAGMENT_LIMIT_PROP_NAME = "sluice.dispatch.fragment.limit";
    /**
     * Whether a batch that is exactly a stored block's rows of the columns a scan read goes to remote CNs
     * as the block's stored bytes (true, the default) or is encoded again like any batch (false: to
     * compare the two, or to rule the stored path out).
     */
    public static final String SEND_STORED_PROP_NAME = "sluice.dispatch.send.stored";
    /** How senders wait on a full queue and receivers on an empty one: backoff, yielding or sleeping. */
    public static final String IDLE_STRATEGY_PROP_NAME = "sluice.dispatch.idle.strategy";

    /**
     * 16 batches: at most 16 x 8192 rows wait per destination; receivers consume while senders send, so
     * a deeper queue only holds more memory.
     */
    public static final int QUEUE_CAPACITY_DEFAULT = 16;
    /** 60 s: longer than the transport's 30 s client liveness, so a dead driver is reported first. */
    public static final long SENDER_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(60);
    /** 1 s: dozens of heartbeats per default sender timeout, and one small frame a second per waiting sender. */
    public static final long HEARTBEAT_INTERVAL_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);
    /** 500 ms: Aeron itself reports a lost UDP receiver only after seconds, so this is not hit by jitter. */
    public static final long DISCONNECT_TIMEOUT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /** 5 min: far longer than CNs take to open the sources of a query they all plan at once. */
    public static final long ROUTE_RETENTION_DEFAULT_NS = TimeUnit.MINUTES.toNanos(5);
    /**
     * 4 batches: enough in flight to hide a round trip (a 1 MiB batch takes longer to send than a
     * loopback round trip), 4 x 8192 rows at most per sending CN and destination.
     */
    public static final int CREDIT_WINDOW_DEFAULT = 4;
    /** 16 fragments per poll. */
    public static final int FRAGMENT_LIMIT_DEFAULT = 16;
    /** 256 MiB: far above what credit lets the senders of every open query send before their sources open. */
    public static final long PENDING_BYTES_DEFAULT = 256L << 20;

    private int queueCapacity;
    private long senderTimeoutNs;
    private long heartbeatIntervalNs;
    private long disconnectTimeoutNs;
    private long routeRetentionNs;
    private int creditWindow;
    private int fragmentLimit;
    private long pendingBytes;
    private TransportContext.IdleKind idleKind;
    private boolean sendStored;

    /** The defaults, overridden by any {@code sluice.dispatch.*} system property set. */
    public DispatchContext() {
        queueCapacity = SystemUtil.getSizeAsInt(QUEUE_CAPACITY_PROP_NAME, QUEUE_CAPACITY_DEFAULT);
        senderTimeoutNs = SystemUtil.getDurationInNanos(SENDER_TIMEOUT_PROP_NAME, SENDER_TIMEOUT_DEFAULT_NS);
        heartbeatIntervalNs = SystemUtil.getDurationInNanos(HEARTBEAT_INTERVAL_PROP_NAME,
                HEARTBEAT_INTERVAL_DEFAULT_NS);
        disconnectTimeoutNs = SystemUtil.getDurationInNanos(DISCONNECT_TIMEOUT_PROP_NAME,
                DISCONNECT_TIMEOUT_DEFAULT_NS);
        routeRetentionNs = SystemUtil.getDurationInNanos(ROUTE_RETENTION_PROP_NAME, ROUTE_RETENTION_DEFAULT_NS);
        creditWindow = SystemUtil.getSizeAsInt(CREDIT_WINDOW_PROP_NAME, CREDIT_WINDOW_DEFAULT);
        fragmentLimit = SystemUtil.getSizeAsInt(FRAGMENT_LIMIT_PROP_NAME, FRAGMENT_LIMIT_DEFAULT);
        pendingBytes = SystemUtil.getSizeAsLong(PENDING_BYTES_PROP_NAME, PENDING_BYTES_DEFAULT);
        sendStored = Boolean.parseBoolean(System.getProperty(SEND_STORED_PROP_NAME, "true").trim());
        final String idle = System.getProperty(IDLE_STRATEGY_PROP_NAME, "backoff");
        try {
            idleKind = TransportContext.IdleKind.valueOf(idle.trim().toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("-D" + IDLE_STRATEGY_PROP_NAME + "=" + idle + " is not one of "
                    + Arrays.toString(TransportContext.IdleKind.values()), e);
        }
    }

    /** Checks the values, naming the setting to change. */
    public DispatchContext validate() {
        if (queueCapacity < 2) {
            throw new IllegalArgumentException("queue capacity " + queueCapacity + " must be at least 2 ("
                    + QUEUE_CAPACITY_PROP_NAME + ")");
        }
        if (senderTimeoutNs <= 0) {
            throw new IllegalArgumentException("sender timeout " + senderTimeoutNs + " ns must be positive ("
                    + SENDER_TIMEOUT_PROP_NAME + ")");
        }
        if (heartbeatIntervalNs <= 0 || heartbeatIntervalNs >= senderTimeoutNs) {
            throw new IllegalArgumentException("heartbeat interval " + heartbeatIntervalNs + " ns must be positive and"
                    + " below the sender timeout " + senderTimeoutNs + " ns, or receivers take waiting senders for"
                    + " dead (" + HEARTBEAT_INTERVAL_PROP_NAME + ", " + SENDER_TIMEOUT_PROP_NAME + ")");
        }
        if (disconnectTimeoutNs <= 0) {
            throw new IllegalArgumentException("disconnect timeout " + disconnectTimeoutNs + " ns must be positive ("
                    + DISCONNECT_TIMEOUT_PROP_NAME + ")");
        }
        if (routeRetentionNs <= 0) {
            throw new IllegalArgumentException("route retention " + routeRetentionNs + " ns must be positive ("
                    + ROUTE_RETENTION_PROP_NAME + ")");
        }
        if (creditWindow < 1 || creditWindow > 1 << 20) {
            throw new IllegalArgumentException("credit window " + creditWindow + " must be 1.." + (1 << 20)
                    + " batches (" + CREDIT_WINDOW_PROP_NAME + ")");
        }
        if (fragmentLimit < 1) {
            throw new IllegalArgumentException("fragment limit " + fragmentLimit + " must be positive ("
                    + FRAGMENT_LIMIT_PROP_NAME + ")");
        }
        if (pendingBytes < 0) {
            throw new IllegalArgumentException("pending bytes " + pendingBytes + " must not be negative ("
                    + PENDING_BYTES_PROP_NAME + ")");
        }
        return this;
    }

    public int queueCapacity() {
        return queueCapacity;
    }

    public DispatchContext queueCapacity(final int queueCapacity) {
        this.queueCapacity = queueCapacity;
        return this;
    }

    public long senderTimeoutNs() {
        return senderTimeoutNs;
    }

    public DispatchContext senderTimeoutNs(final long senderTimeoutNs) {
        this.senderTimeoutNs = senderTimeoutNs;
        return this;
    }

    public long heartbeatIntervalNs() {
        return heartbeatIntervalNs;
    }

    public DispatchContext heartbeatIntervalNs(final long heartbeatIntervalNs) {
        this.heartbeatIntervalNs = heartbeatIntervalNs;
        return this;
    }

    public long disconnectTimeoutNs() {
        return disconnectTimeoutNs;
    }

    public DispatchContext disconnectTimeoutNs(final long disconnectTimeoutNs) {
        this.disconnectTimeoutNs = disconnectTimeoutNs;
        return this;
    }

    public long routeRetentionNs() {
        return routeRetentionNs;
    }

    public DispatchContext routeRetentionNs(final long routeRetentionNs) {
        this.routeRetentionNs = routeRetentionNs;
        return this;
    }

    /** Batches a sending CN may have in flight to one remote destination (default 4). */
    public int creditWindow() {
        return creditWindow;
    }

    public DispatchContext creditWindow(final int creditWindow) {
        this.creditWindow = creditWindow;
        return this;
    }

    public int fragmentLimit() {
        return fragmentLimit;
    }

    public DispatchContext fragmentLimit(final int fragmentLimit) {
        this.fragmentLimit = fragmentLimit;
        return this;
    }

    /** See {@link #PENDING_BYTES_PROP_NAME}. */
    public long pendingBytes() {
        return pendingBytes;
    }

    public DispatchContext pendingBytes(final long pendingBytes) {
        this.pendingBytes = pendingBytes;
        return this;
    }

    public TransportContext.IdleKind idleKind() {
        return idleKind;
    }

    public DispatchContext idleKind(final TransportContext.IdleKind idleKind) {
        this.idleKind = idleKind;
        return this;
    }

    /** See {@link #SEND_STORED_PROP_NAME} (default true). */
    public boolean sendStored() {
        return sendStored;
    }

    public DispatchContext sendStored(final boolean sendStored) {
        this.sendStored = sendStored;
        return this;
    }

    /** A new idle strategy of the configured kind; one per thread. */
    public IdleStrategy newIdleStrategy() {
        return idleKind.newIdleStrategy();
    }
}
