package io.sluice.dispatch;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.FrameSubscriber;
import io.sluice.transport.TransportContext;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SystemNanoClock;

/**
 * One CN as dispatch sees it: its index, the Aeron client of its media driver, the channels every
 * CN receives on, and the local queues and counters of the exchanges open on it. Opens the
 * {@link ExchangeSink}s of its sending pipelines and the {@link ExchangeSource}s of its buckets.
 *
 * <p>Owns the CN's Aeron resources, which every query and exchange shares: the one subscription on
 * which it receives, subscribed when the node is made and read by its {@link Demultiplexer}, and one
 * concurrent publication to each other CN, added the first time a sink sends there and shared by all
 * the node's sinks. So a cluster of n CNs holds at most n x (n - 1) publications, however many
 * queries, exchanges, buckets and pipelines it runs. {@link #close} releases them.
 * Thread-safe: pipelines on several threads open sinks and sources concurrently.
 */
public final class ComputeNode implements AutoCloseable {
    private record ExchangeKey(long queryId, int exchangeId) {
    }

    private final int cn;
    private final Aeron aeron;
    private final TransportContext transportContext;
    private final DispatchContext dispatchContext;
    private final Channels channels;
    private final Demultiplexer demultiplexer;
    /** Guarded by this. */
    private final Publication[] publications;
    /** 1 once the publication to a CN has been connected: sinks wait for that once per node and CN. */
    private final AtomicIntegerArray connected;
    private final ConcurrentHashMap<ExchangeKey, LocalInbound[]> inbounds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ExchangeKey, ExchangeCounters> counters = new ConcurrentHashMap<>();
    /** Guarded by this. */
    private int publicationsOpened;
    /** Guarded by this. */
    private boolean closed;

    /**
     * A CN over a connected Aeron client, which the caller owns and closes after this node. Subscribes
     * to the CN's stream now, so other CNs can connect before any exchange opens here.
     *
     * @param channels where every CN of the cluster receives
     */
    public ComputeNode(final int cn, final Aeron aeron, final TransportContext transportContext,
            final DispatchContext dispatchContext, final Channels channels) {
        if (cn < 0 || cn >= channels.cnCount()) {
            throw new IllegalArgumentException("CN " + cn + " is not in a cluster of " + channels.cnCount() + " CNs");
        }
        this.cn = cn;
        this.aeron = aeron;
        this.transportContext = transportContext;
        this.dispatchContext = dispatchContext.validate();
        this.channels = channels;
        this.publications = new Publication[channels.cnCount()];
        this.connected = new AtomicIntegerArray(channels.cnCount());
        this.demultiplexer = new Demultiplexer(cn,
                new FrameSubscriber(aeron.addSubscription(channels.of(cn), channels.streamOf(cn))), this.dispatchContext);
    }

    /** The sink of sending pipeline {@code pipeline} (0 to sendersPerCn - 1) of this CN. */
    public ExchangeSink openSink(final Exchange exchange, final int pipeline) {
        checkTopology(exchange);
        if (pipeline < 0 || pipeline >= exchange.sendersPerCn()) {
            throw new IllegalArgumentException("sending pipeline " + pipeline + " on CN " + cn + " for "
                    + exchange.describe() + ": use 0.." + (exchange.sendersPerCn() - 1));
        }
        return new ExchangeSink(this, exchange, pipeline);
    }

    /**
     * The source of this CN's core {@code core}, which receives bucket {@code firstBucketOf(cn) + core},
     * with any frames that reached this CN for it before it opened.
     */
    public ExchangeSource openSource(final Exchange exchange, final int core) {
        checkTopology(exchange);
        final int bucket = exchange.topology().firstBucketOf(cn) + core;
        if (core < 0 || core >= exchange.topology().coresPerCn() || !exchange.receives(bucket)) {
            throw new IllegalArgumentException("CN " + cn + " core " + core + " receives nothing in "
                    + exchange.describe() + (exchange.mode() == DispatchMode.GATHER
                    ? ": only bucket " + exchange.gatherBucket() + " receives a GATHER" : ""));
        }
        return new ExchangeSource(this, exchange, bucket, inbound(exchange, bucket));
    }

    /** What this CN's senders moved in an exchange, and the frames its receivers dropped. */
    public ExchangeCounters counters(final Exchange exchange) {
        return counters.computeIfAbsent(new ExchangeKey(exchange.queryId(), exchange.exchangeId()),
                k -> new ExchangeCounters(exchange.topology().bucketCount()));
    }

    /**
     * Forgets an exchange's local queues and counters once all its sinks and sources are closed; frames
     * still arriving for it are dropped.
     */
    public void closeExchange(final Exchange exchange) {
        final ExchangeKey key = new ExchangeKey(exchange.queryId(), exchange.exchangeId());
        inbounds.remove(key);
        counters.remove(key);
        demultiplexer.closeExchange(exchange.queryId(), exchange.exchangeId());
    }

    /** The local queue of bucket {@code bucket}, which must run on this CN. */
    LocalInbound inbound(final Exchange exchange, final int bucket) {
        final LocalInbound[] byCore = inbounds.computeIfAbsent(
                new ExchangeKey(exchange.queryId(), exchange.exchangeId()), k -> newInbounds(exchange));
        return byCore[exchange.topology().coreOf(bucket)];
    }

    private LocalInbound[] newInbounds(final Exchange exchange) {
        final int cores = exchange.topology().coresPerCn();
        final LocalInbound[] byCore = new LocalInbound[cores];
        for (int core = 0; core < cores; core++) {
            if (exchange.receives(exchange.topology().firstBucketOf(cn) + core)) {
                byCore[core] = new LocalInbound(dispatchContext.queueCapacity());
            }
        }
        return byCore;
    }

    private void checkTopology(final Exchange exchange) {
        if (exchange.topology().cnCount() != channels.cnCount()) {
            throw new IllegalArgumentException(exchange.describe() + " spans " + exchange.topology().cnCount()
                    + " CNs but CN " + cn + " knows channels for " + channels.cnCount()
                    + ": plan the exchange for the cluster it runs on");
        }
    }

    /**
     * The publication to CN {@code targetCn}, added on first use and kept until this node closes:
     * concurrent, so every sink of this node sends on it.
     */
    synchronized Publication publication(final int targetCn) {
        if (closed) {
            throw new IllegalStateException("CN " + cn + " is closed: it sends nothing more");
        }
        if (targetCn == cn) {
            throw new IllegalArgumentException("CN " + cn + " sends to its own destinations through local queues");
        }
        Publication publication = publications[targetCn];
        if (publication == null) {
            publication = aeron.addPublication(channels.of(targetCn), channels.streamOf(targetCn));
            publications[targetCn] = publication;
            publicationsOpened++;
        }
        return publication;
    }

    /**
     * A publisher for one sending thread over the shared publication to {@code targetCn}; closing it
     * leaves the publication open. Once connected, a send that finds the publication no longer
     * connected fails after the disconnect timeout: a sink waits for the first connection itself,
     * with the transport's connect timeout.
     */
    FramePublisher publisher(final int targetCn) {
        return FramePublisher.sharing(publication(targetCn), transportContext.idleKind().newIdleStrategy(),
                SystemNanoClock.INSTANCE, dispatchContext.disconnectTimeoutNs(), transportContext.stallTimeoutNs());
    }

    /** Whether the publication to {@code targetCn} is, or once was, connected: then no sink waits for it. */
    boolean isConnected(final int targetCn) {
        if (connected.get(targetCn) == 1) {
            return true;
        }
        if (publication(targetCn).isConnected()) {
            connected.set(targetCn, 1);
            return true;
        }
        return false;
    }

    /** How long a sink waits for the publication to a CN to connect the first time. */
    long connectTimeoutNs() {
        return transportContext.connectTimeoutNs();
    }

    Demultiplexer demultiplexer() {
        return demultiplexer;
    }

    /** Publications this node has added: at most one per other CN, however many exchanges it ran. */
    public synchronized int publicationCount() {
        return publicationsOpened;
    }

    /**
     * Frames this CN received and dropped: for destinations that had finished early or closed, for
     * exchanges it had closed, or kept past the route retention for a source that never opened.
     */
    public long droppedFrames() {
        return demultiplexer.droppedFrames();
    }

    public int cn() {
        return cn;
    }

    public DispatchContext dispatchContext() {
        return dispatchContext;
    }

    public Channels channels() {
        return channels;
    }

    /**
     * Closes the subscription and the publications; the Aeron client stays open (its owner closes it
     * after). Sources still open receive nothing more, sinks still open fail their next remote send.
     */
    @Override
    public void close() {
        final Publication[] toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = publications.clone();
        }
        try {
            demultiplexer.close();
        } finally {
            CloseHelper.closeAll(toClose);
        }
    }
}
