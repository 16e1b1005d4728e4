package io.sluice.dispatch;

import io.aeron.Aeron;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.FrameSubscriber;
import io.sluice.transport.TransportContext;
import java.util.concurrent.ConcurrentHashMap;
import org.agrona.concurrent.SystemNanoClock;

/**
 * One CN as dispatch sees it: its index, the Aeron client of its media driver, the channels every
 * CN receives on, and the local queues and counters of the exchanges open on it. Opens the
 * {@link ExchangeSink}s of its sending pipelines and the {@link ExchangeSource}s of its buckets.
 * Thread-safe: pipelines on several threads open sinks and sources concurrently.
 */
public final class ComputeNode {
    private record ExchangeKey(long queryId, int exchangeId) {
    }

    private final int cn;
    private final Aeron aeron;
    private final TransportContext transportContext;
    private final DispatchContext dispatchContext;
    private final Channels channels;
    private final ConcurrentHashMap<ExchangeKey, LocalInbound[]> inbounds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ExchangeKey, ExchangeCounters> counters = new ConcurrentHashMap<>();

    /**
     * A CN over a connected Aeron client, which the caller owns and closes after this node's exchanges.
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

    /** The source of this CN's core {@code core}, which receives bucket {@code firstBucketOf(cn) + core}. */
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

    /** What this CN's senders moved in an exchange. */
    public ExchangeCounters counters(final Exchange exchange) {
        return counters.computeIfAbsent(new ExchangeKey(exchange.queryId(), exchange.exchangeId()),
                k -> new ExchangeCounters(exchange.topology().bucketCount()));
    }

    /** Forgets an exchange's local queues and counters once all its sinks and sources are closed. */
    public void closeExchange(final Exchange exchange) {
        final ExchangeKey key = new ExchangeKey(exchange.queryId(), exchange.exchangeId());
        inbounds.remove(key);
        counters.remove(key);
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
     * A publisher whose sends give up after the disconnect timeout once not connected: a sink waits
     * for the first connection itself, with the transport's connect timeout.
     */
    FramePublisher publisher(final int targetCn, final int streamId) {
        return new FramePublisher(aeron.addExclusivePublication(channels.of(targetCn), streamId),
                transportContext.idleKind().newIdleStrategy(), SystemNanoClock.INSTANCE,
                dispatchContext.disconnectTimeoutNs());
    }

    /** How long a sink waits for a remote destination to connect the first time. */
    long connectTimeoutNs() {
        return transportContext.connectTimeoutNs();
    }

    FrameSubscriber subscriber(final int streamId) {
        return new FrameSubscriber(aeron.addSubscription(channels.of(cn), streamId));
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
}
