package io.sluice.dispatch;

import io.sluice.shuffle.Topology;
import io.sluice.transport.FrameHandler;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FrameSubscriber;
import io.sluice.transport.MalformedFrameException;
import io.sluice.transport.RejectionLog;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The receiving end of one CN's stream: routes every frame sent to the CN, of every query, exchange and
 * bucket, by (query, exchange, bucket) to the inbox of the {@link ExchangeSource} registered for it, as
 * the {@link FrameDecoder} turns it into an item, and CREDIT frames to the {@link ExchangeCredits} of
 * this CN's senders. No thread of its own: sources with empty inboxes drive it through {@link #poll},
 * under a lock a thread finding it taken skips. Frames for sources not yet open are kept for the route
 * retention; frames that fit nothing are dropped and counted ({@link #badFrames}, {@link #droppedFrames}).
 * Frames the subscription's opener refused (not sealed for this CN by a member, altered, replayed)
 * never get here. Why it never blocks, and how it keeps and drops frames: {@code dispatch/README.md}.
 */
final class Demultiplexer implements FrameHandler, AutoCloseable {
    private final String self;
    private final FrameSubscriber subscriber;
    private final int fragmentLimit;
    private final long listenGapNs;
    private final long retentionNs;
    private final long maxPendingBytes;
    private final RejectionLog rejections;
    private final ReentrantLock lock = new ReentrantLock();
    private final HashMap<Key, ExchangeRoutes> exchanges = new HashMap<>();
    private final Key lookup = new Key();
    private final FrameDecoder decoder = new FrameDecoder();
    private final AtomicLong droppedFrames = new AtomicLong();
    private final AtomicLong badFrames = new AtomicLong();
    private final AtomicLong pendingFrames = new AtomicLong();
    /** Guarded by the lock. */
    private long pendingBytes;
    private volatile long listeningSinceNs;
    private long lastPollNs;
    private long lastPurgeNs;
    private long nowNs;
    private boolean closed;

    /**
     * @param subscriber the CN's subscription, which this then owns and closes
     */
    Demultiplexer(final FrameSubscriber subscriber, final DispatchContext context, final RejectionLog rejections) {
        this.self = "the CN receiving on " + subscriber.channel() + " stream " + subscriber.streamId();
        this.subscriber = subscriber;
        this.fragmentLimit = context.fragmentLimit();
        this.listenGapNs = context.heartbeatIntervalNs();
        this.retentionNs = context.routeRetentionNs();
        this.maxPendingBytes = context.pendingBytes();
        this.rejections = rejections;
        final long now = System.nanoTime();
        this.listeningSinceNs = now;
        this.lastPollNs = now;
        this.lastPurgeNs = now;
    }

    /**
     * Routes what the stream holds, up to the fragment limit, unless another thread is doing so now.
     *
     * @return fragments read; zero when there was nothing, or another thread was polling
     */
    int poll() {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
            if (closed) {
                return 0;
            }
            final long now = System.nanoTime();
            nowNs = now;
            if (now - lastPollNs > listenGapNs) {
                listeningSinceNs = now;
            }
            lastPollNs = now;
            int fragments;
            try {
                fragments = subscriber.poll(this, fragmentLimit);
            } catch (final MalformedFrameException e) {
                failOpenRoutes(e);
                fragments = 1;
            }
            if (fragments >= fragmentLimit) {
                listeningSinceNs = now;
            }
            if (now - lastPurgeNs > retentionNs / 4) {
                lastPurgeNs = now;
                purge(now);
            }
            return fragments;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Registers the source of {@code bucket}: frames for it go to {@code inbox} from now on, after those
     * that arrived before it opened.
     *
     * @throws IllegalStateException when a source of this destination was already opened here, or its
     *                               early frames were discarded
     */
    void register(final Exchange exchange, final int bucket, final RemoteInbox inbox,
            final ExchangeCounters counters) {
        lock.lock();
        try {
            final int cn = exchange.topology().cnOf(bucket);
            if (closed) {
                throw new IllegalStateException("CN " + cn + " is closed: cannot open the source of bucket " + bucket
                        + " of " + exchange.describe());
            }
            final long now = System.nanoTime();
            final ExchangeRoutes routes = routes(exchange.queryId(), exchange.exchangeId(), now);
            if (routes.closed) {
                throw new IllegalStateException("CN " + cn + " has closed " + exchange.describe()
                        + ": open its sources before closeExchange, and give each exchange its own ids");
            }
            learn(routes, exchange, cn);
            routes.counters = counters;
            routes.touchedNs = now;
            Route route = routes.byBucket.get(bucket);
            if (route == null) {
                route = new Route();
                routes.byBucket.put(bucket, route);
            } else if (route.state == RouteState.OPEN) {
                throw new IllegalStateException("CN " + cn + " already has an open source for bucket " + bucket
                        + " of " + exchange.describe());
            } else if (route.state == RouteState.CLOSED) {
                throw new IllegalStateException(route.expired
                        ? "frames for bucket " + bucket + " of " + exchange.describe() + " reached CN " + cn + " more than "
                        + TimeUnit.NANOSECONDS.toMillis(retentionNs) + " ms before its source opened and were discarded:"
                        + " open sources before their senders start, or raise "
                        + DispatchContext.ROUTE_RETENTION_PROP_NAME
                        : "the source of bucket " + bucket + " of " + exchange.describe() + " was already opened and"
                        + " closed on CN " + cn + ": give each exchange its own ids");
            }
            final ArrayDeque<PendingFrame> early = route.pending;
            route.state = RouteState.OPEN;
            route.pending = null;
            route.inbox = inbox;
            route.origin = exchange.describe() + " at " + Destination.of(exchange.topology(), bucket);
            if (early != null) {
                pendingFrames.addAndGet(-early.size());
                for (final PendingFrame frame : early) {
                    pendingBytes -= frame.bytes();
                    if (frame.fault != null) {
                        inbox.add(FrameDecoder.malformed(route.origin, frame.senderCn, frame.fault));
                    } else {
                        deliver(routes, route, frame.senderCn, frame.kind, frame.payload, 0, frame.payload.capacity());
                    }
                }
            }
            failMisroutedPending(routes, route);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops routing to the source of {@code bucket} (finished early or closed): its later frames are
     * dropped and counted.
     */
    void unregister(final Exchange exchange, final int bucket) {
        lock.lock();
        try {
            final ExchangeRoutes routes = exchanges.get(lookup.set(exchange.queryId(), exchange.exchangeId()));
            final Route route = routes == null ? null : routes.byBucket.get(bucket);
            if (route != null) {
                close(routes, route);
                routes.touchedNs = System.nanoTime();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Routes the CREDIT frames of an exchange to the credit of its senders on this CN, which is CN
     * {@code cn} of the exchange's view.
     */
    void registerCredits(final Exchange exchange, final int cn, final ExchangeCredits credits) {
        lock.lock();
        try {
            final ExchangeRoutes routes = routes(exchange.queryId(), exchange.exchangeId(), System.nanoTime());
            learn(routes, exchange, cn);
            routes.credits = credits;
        } finally {
            lock.unlock();
        }
    }

    /** Records the exchange and this CN's index in it, the first time either registration tells them. */
    private void learn(final ExchangeRoutes routes, final Exchange exchange, final int cn) {
        if (routes.exchange == null) {
            routes.exchange = exchange;
            routes.localCn = cn;
        } else if (routes.localCn != cn) {
            throw new IllegalStateException("CN " + cn + " registers for " + exchange.describe()
                    + ", which this node already serves as CN " + routes.localCn + ": one node is one CN of a query");
        }
    }

    /** Closes every route of an exchange: frames kept for it, and later ones, are dropped and counted. */
    void closeExchange(final long queryId, final int exchangeId) {
        lock.lock();
        try {
            final ExchangeRoutes routes = exchanges.get(lookup.set(queryId, exchangeId));
            if (routes != null) {
                routes.closed = true;
                routes.touchedNs = System.nanoTime();
                for (final Route route : routes.byBucket.values()) {
                    close(routes, route);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onFrame(final long queryId, final int exchangeId, final int senderCn, final int bucket,
            final FrameKind kind, final DirectBuffer buffer, final int offset, final int length) {
        final ExchangeRoutes routes = routes(queryId, exchangeId, nowNs);
        routes.touchedNs = nowNs;
        if (kind == FrameKind.CREDIT) {
            credit(routes, senderCn, bucket, buffer, offset, length);
            return;
        }
        final Route route = route(routes, bucket);
        if (route == null) {
            return;
        }
        switch (route.state) {
            case OPEN:
                deliver(routes, route, senderCn, kind, buffer, offset, length);
                break;
            case PENDING:
                if (pendingBytes + length > maxPendingBytes) {
                    drop(routes, kind);
                    rejections.reject("CN " + senderCn, "kept too long", "a " + kind + " frame for bucket " + bucket
                            + " of query " + queryId + " exchange " + exchangeId + ", whose source has not opened, would"
                            + " take the frames kept for unopened sources past " + maxPendingBytes + " bytes ("
                            + DispatchContext.PENDING_BYTES_PROP_NAME + ")");
                    break;
                }
                final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
                copy.putBytes(0, buffer, offset, length);
                route.pending.add(new PendingFrame(senderCn, kind, copy, null));
                pendingFrames.incrementAndGet();
                pendingBytes += length;
                break;
            default:
                drop(routes, kind);
        }
    }

    @Override
    public void onRejectedFrame(final String source, final String reason) {
        final int colon = reason.indexOf(": ");
        rejections.reject(source, colon < 0 ? reason : reason.substring(0, colon), reason);
    }

    @Override
    public void onMalformedFrame(final long queryId, final int exchangeId, final int senderCn, final int bucket,
            final MalformedFrameException fault) {
        final ExchangeRoutes routes = routes(queryId, exchangeId, nowNs);
        routes.touchedNs = nowNs;
        final Route route = route(routes, bucket);
        if (route == null) {
            return;
        }
        switch (route.state) {
            case OPEN:
                route.inbox.add(FrameDecoder.malformed(route.origin, senderCn, fault));
                break;
            case PENDING:
                route.pending.add(new PendingFrame(senderCn, null, null, fault));
                pendingFrames.incrementAndGet();
                break;
            default:
                droppedFrames.incrementAndGet();
        }
    }

    /**
     * The route of {@code bucket}, made pending when new; null when the exchange is known here and does
     * not receive that bucket on this CN, in which case its open sources have been failed.
     */
    private Route route(final ExchangeRoutes routes, final int bucket) {
        Route route = routes.byBucket.get(bucket);
        if (route != null) {
            return route;
        }
        if (routes.closed) {
            route = new Route();
            route.state = RouteState.CLOSED;
        } else if (routes.exchange != null && !receivesHere(routes, bucket)) {
            failOpenRoutes(routes, "a frame for bucket " + bucket + ", which does not receive on CN " + routes.localCn);
            droppedFrames.incrementAndGet();
            return null;
        } else {
            route = new Route();
            route.pending = new ArrayDeque<>();
            route.pendingSinceNs = nowNs;
        }
        routes.byBucket.put(bucket, route);
        return route;
    }

    /** Hands one frame to an open route's inbox, or the protocol violation it is. */
    private void deliver(final ExchangeRoutes routes, final Route route, final int senderCn, final FrameKind kind,
            final DirectBuffer buffer, final int offset, final int length) {
        route.frames++;
        route.inbox.add(decoder.decode(routes.exchange, routes.localCn, route.origin, route.frames, senderCn, kind,
                buffer, offset, length));
    }

    /**
     * Credit granted by the receiver of {@code bucket} on CN {@code senderCn} to this CN's senders:
     * dropped and counted unless the exchange's senders registered here and the frame fits.
     */
    private void credit(final ExchangeRoutes routes, final int senderCn, final int bucket, final DirectBuffer buffer,
            final int offset, final int length) {
        final ExchangeCredits credits = routes.credits;
        if (credits == null) {
            droppedFrames.incrementAndGet();
            return;
        }
        final Topology topology = routes.exchange.topology();
        if (length != FrameDecoder.CREDIT_PAYLOAD_LENGTH || bucket < 0 || bucket >= topology.bucketCount()
                || topology.cnOf(bucket) != senderCn || senderCn == routes.localCn
                || !routes.exchange.expects(senderCn, routes.localCn)) {
            badFrames.incrementAndGet();
            return;
        }
        credits.grant(bucket, buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN));
    }

    private static boolean receivesHere(final ExchangeRoutes routes, final int bucket) {
        return routes.exchange.receives(bucket) && routes.exchange.topology().cnOf(bucket) == routes.localCn;
    }

    /** Pending frames for buckets the now known exchange does not receive here fail the new source. */
    private void failMisroutedPending(final ExchangeRoutes routes, final Route opened) {
        routes.byBucket.forEachInt((bucket, route) -> {
            if (route.state == RouteState.PENDING && !receivesHere(routes, bucket)) {
                opened.inbox.add(new DispatchException(opened.origin + ": CN " + routes.localCn + " received frames"
                        + " for bucket " + bucket + " of this exchange, which does not receive on CN " + routes.localCn));
                close(routes, route);
            }
        });
    }

    private void drop(final ExchangeRoutes routes, final FrameKind kind) {
        droppedFrames.incrementAndGet();
        if (kind == FrameKind.DATA && routes.counters != null) {
            routes.counters.onRemoteDropped(1);
        }
    }

    private void close(final ExchangeRoutes routes, final Route route) {
        if (route.state == RouteState.PENDING) {
            for (final PendingFrame frame : route.pending) {
                drop(routes, frame.kind);
                pendingBytes -= frame.bytes();
            }
            pendingFrames.addAndGet(-route.pending.size());
        }
        route.state = RouteState.CLOSED;
        route.pending = null;
        route.inbox = null;
    }

    private void failOpenRoutes(final ExchangeRoutes routes, final String what) {
        for (final Route route : routes.byBucket.values()) {
            if (route.state == RouteState.OPEN) {
                route.inbox.add(new DispatchException(route.origin + ": CN " + routes.localCn + " received " + what));
            }
        }
    }

    /** A frame no destination can be named for breaks every destination open on this CN. */
    private void failOpenRoutes(final MalformedFrameException e) {
        droppedFrames.incrementAndGet();
        for (final ExchangeRoutes routes : exchanges.values()) {
            for (final Route route : routes.byBucket.values()) {
                if (route.state == RouteState.OPEN) {
                    route.inbox.add(new DispatchException(route.origin + ": " + self + " received a frame that"
                            + " names no destination, so none of its destinations can trust its stream: "
                            + e.getMessage(), e));
                }
            }
        }
    }

    /** Discards frames kept past the retention and forgets exchanges with nothing open and nothing recent. */
    private void purge(final long now) {
        for (final Iterator<ExchangeRoutes> it = exchanges.values().iterator(); it.hasNext(); ) {
            final ExchangeRoutes routes = it.next();
            boolean live = false;
            for (final Route route : routes.byBucket.values()) {
                if (route.state == RouteState.PENDING && now - route.pendingSinceNs > retentionNs) {
                    close(routes, route);
                    route.expired = true;
                    routes.touchedNs = now;
                }
                live |= route.state != RouteState.CLOSED;
            }
            if (!live && now - routes.touchedNs > retentionNs) {
                it.remove();
            }
        }
    }

    private ExchangeRoutes routes(final long queryId, final int exchangeId, final long now) {
        ExchangeRoutes routes = exchanges.get(lookup.set(queryId, exchangeId));
        if (routes == null) {
            routes = new ExchangeRoutes();
            routes.touchedNs = now;
            exchanges.put(new Key().set(queryId, exchangeId), routes);
        }
        return routes;
    }

    /** When this CN last started listening without a break; see the class comment. Any thread. */
    long listeningSinceNs() {
        return listeningSinceNs;
    }

    /** Frames dropped: for closed or finished destinations, closed exchanges, or kept past the retention. */
    long droppedFrames() {
        return droppedFrames.get();
    }

    /** CREDIT frames that did not fit their exchange (a CN not owning the bucket, a bad length), dropped. */
    long badFrames() {
        return badFrames.get();
    }

    /** Frames kept now for destinations whose source has not opened. */
    long pendingFrames() {
        return pendingFrames.get();
    }

    /** Closes the subscription; later polls read nothing. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                subscriber.close();
            }
        } finally {
            lock.unlock();
        }
    }

    private enum RouteState {
        PENDING, OPEN, CLOSED
    }

    /** Where the frames of one bucket go. Guarded by the lock. */
    private static final class Route {
        RouteState state = RouteState.PENDING;
        ArrayDeque<PendingFrame> pending;
        long pendingSinceNs;
        /** Closed because its pending frames outlived the retention. */
        boolean expired;
        RemoteInbox inbox;
        String origin;
        long frames;
    }

    /**
     * The routes of one exchange on this CN; {@code exchange} and this CN's index in it are unknown
     * until a source or the senders' credits register.
     */
    private static final class ExchangeRoutes {
        final Int2ObjectHashMap<Route> byBucket = new Int2ObjectHashMap<>();
        Exchange exchange;
        int localCn = -1;
        ExchangeCounters counters;
        ExchangeCredits credits;
        boolean closed;
        long touchedNs;
    }

    /** A frame kept for a source not yet open: its payload copied, or the fault of a malformed one. */
    private record PendingFrame(int senderCn, FrameKind kind, UnsafeBuffer payload, MalformedFrameException fault) {
        long bytes() {
            return payload == null ? 0 : payload.capacity();
        }
    }

    /** (query, exchange); one mutable instance serves lookups without allocating. */
    private static final class Key {
        private long queryId;
        private int exchangeId;

        Key set(final long queryId, final int exchangeId) {
            this.queryId = queryId;
            this.exchangeId = exchangeId;
            return this;
        }

        @Override
        public boolean equals(final Object o) {
            return o instanceof Key k && k.queryId == queryId && k.exchangeId == exchangeId;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(queryId) * 31 + exchangeId;
        }
    }
}
