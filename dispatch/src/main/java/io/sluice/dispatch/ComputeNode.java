package io.sluice.dispatch;

import io.aeron.Aeron;
import io.sluice.engine.exec.Cancellation;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.TransportContext;

/**
 * One CN as dispatch sees it in one cluster view: its index among the view's CNs, where every CN of
 * the view receives ({@link Channels}), and the {@link DataPlane} whose subscription, publications,
 * queues and counters it uses. Opens the {@link ExchangeSink}s of its sending pipelines and the
 * {@link ExchangeSource}s of its buckets.
 *
 * <p>A CN process has one data plane and a view per query (its index is its place among the query's
 * CNs, which may differ from query to query); an embedded cluster has one view per CN, owning its
 * data plane. Waits of the view's sinks and sources stop when its {@link Cancellation} is set.
 * Thread-safe: pipelines on several threads open sinks and sources concurrently.
 */
public final class ComputeNode implements AutoCloseable {
    private final int cn;
    private final Channels channels;
    private final DataPlane plane;
    private final boolean ownsPlane;
    private final Cancellation cancellation;

    /**
     * CN {@code cn} of a view whose CNs receive on {@code channels}, over a data plane that receives
     * on this CN's channel and stream, which the caller owns.
     */
    public ComputeNode(final int cn, final Channels channels, final DataPlane plane, final Cancellation cancellation) {
        this(cn, channels, plane, cancellation, false);
    }

    /**
     * A CN with a data plane of its own over a connected Aeron client, which the caller owns and closes
     * after this node. Subscribes to the CN's stream now, so other CNs can connect before any exchange
     * opens here.
     *
     * @param channels where every CN of the cluster receives
     */
    public ComputeNode(final int cn, final Aeron aeron, final TransportContext transportContext,
            final DispatchContext dispatchContext, final Channels channels) {
        this(cn, channels, new DataPlane(aeron, channels.of(check(cn, channels)), channels.streamOf(cn),
                transportContext, dispatchContext), Cancellation.never(), true);
    }

    private ComputeNode(final int cn, final Channels channels, final DataPlane plane, final Cancellation cancellation,
            final boolean ownsPlane) {
        check(cn, channels);
        if (channels.indexOf(plane.channel(), plane.stream()) != cn) {
            throw new IllegalArgumentException("CN " + cn + " of " + channels + " receives on " + channels.of(cn)
                    + " stream " + channels.streamOf(cn) + ", but its data plane on " + plane.channel() + " stream "
                    + plane.stream());
        }
        this.cn = cn;
        this.channels = channels;
        this.plane = plane;
        this.ownsPlane = ownsPlane;
        this.cancellation = cancellation;
    }

    private static int check(final int cn, final Channels channels) {
        if (cn < 0 || cn >= channels.cnCount()) {
            throw new IllegalArgumentException("CN " + cn + " is not in a cluster of " + channels.cnCount() + " CNs");
        }
        return cn;
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
        return plane.counters(exchange);
    }

    /**
     * Forgets an exchange's local queues, counters and credits once all its sinks and sources are
     * closed; frames still arriving for it are dropped.
     */
    public void closeExchange(final Exchange exchange) {
        plane.closeExchange(exchange);
    }

    /** The local queue of bucket {@code bucket}, which must run on this CN. */
    LocalInbound inbound(final Exchange exchange, final int bucket) {
        return plane.inbounds(exchange, cn)[exchange.topology().coreOf(bucket)];
    }

    /** The credit this CN's senders hold for the exchange's remote destinations. */
    ExchangeCredits credits(final Exchange exchange) {
        return plane.credits(exchange, cn);
    }

    private void checkTopology(final Exchange exchange) {
        if (exchange.topology().cnCount() != channels.cnCount()) {
            throw new IllegalArgumentException(exchange.describe() + " spans " + exchange.topology().cnCount()
                    + " CNs but CN " + cn + " knows channels for " + channels.cnCount()
                    + ": plan the exchange for the cluster it runs on");
        }
    }

    /**
     * A publisher for one sending thread over the shared publication to {@code targetCn}; closing it
     * leaves the publication open. Once connected, a send that finds the publication no longer
     * connected fails after the disconnect timeout: a sink waits for the first connection itself,
     * with the transport's connect timeout.
     */
    FramePublisher publisher(final int targetCn) {
        if (targetCn == cn) {
            throw new IllegalArgumentException("CN " + cn + " sends to its own destinations through local queues");
        }
        return plane.publisher(channels.of(targetCn), channels.streamOf(targetCn), channels.incarnationOf(targetCn));
    }

    /** The shared publication to {@code targetCn}, for raw frames. */
    io.aeron.Publication publication(final int targetCn) {
        return plane.publication(channels.of(targetCn), channels.streamOf(targetCn));
    }

    /** Whether the publication to {@code targetCn} is, or once was, connected: then no sink waits for it. */
    boolean isConnected(final int targetCn) {
        return plane.isConnected(channels.of(targetCn), channels.streamOf(targetCn));
    }

    /** How long a sink waits for the publication to a CN to connect the first time. */
    long connectTimeoutNs() {
        return plane.transportContext().connectTimeoutNs();
    }

    Demultiplexer demultiplexer() {
        return plane.demultiplexer();
    }

    /** Publications this node's data plane holds: at most one per other CN, however many exchanges it ran. */
    public int publicationCount() {
        return plane.publicationCount();
    }

    /**
     * Frames this CN received and dropped: for destinations that had finished early or closed, for
     * exchanges it had closed, or kept past the route retention for a source that never opened.
     */
    public long droppedFrames() {
        return plane.droppedFrames();
    }

    public int cn() {
        return cn;
    }

    public DispatchContext dispatchContext() {
        return plane.dispatchContext();
    }

    public Channels channels() {
        return channels;
    }

    /** The data plane this view sends and receives through. */
    public DataPlane plane() {
        return plane;
    }

    /** The signal that stops the waits of this view's sinks and sources. */
    public Cancellation cancellation() {
        return cancellation;
    }

    /**
     * Closes the data plane when this node owns it (sources still open receive nothing more, sinks
     * still open fail their next remote send); a view over a shared plane leaves it open.
     */
    @Override
    public void close() {
        if (ownsPlane) {
            plane.close();
        }
    }
}
