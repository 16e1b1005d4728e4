package io.sluice.dispatch;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.Endpoint;
import io.sluice.transport.FrameOpener;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.FrameSealer;
import io.sluice.transport.FrameSubscriber;
import io.sluice.transport.RejectionLog;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SystemNanoClock;

/**
 * The data-plane resources of one CN process (or of one embedded CN): the subscription on which it
 * receives every frame of every query, read by its {@link Demultiplexer}, one concurrent publication
 * to each other CN it sends to, keyed by where that CN receives (channel and stream), and the local
 * queues, counters and credits of the exchanges open on it. They outlive queries: a CN joins many
 * queries, in each under the index its {@link ComputeNode} view gives it, and all share these. A
 * process talking to n other CNs holds at most n publications, however many queries, exchanges,
 * buckets and pipelines it runs. {@link #close} releases them; the Aeron client stays its owner's.
 *
 * <p>With a {@link ClusterSecret}, every frame it sends is sealed for its receiver with AES-GCM and
 * numbered ({@link FrameSealer}, one per receiver and its incarnation, shared by the process's
 * senders, under a key of its own), and every frame it receives is opened before anything in it is read
 * ({@link FrameOpener}, with this CN's incarnation): a frame no member sealed for this CN (since it
 * started), one altered on the way, or one that came before is dropped, counted ({@link #rejectedFrames})
 * and logged at a bounded rate, naming where it came from. Thread-safe.
 */
public final class DataPlane implements AutoCloseable {
    private record ExchangeKey(long queryId, int exchangeId) {
    }

    private record Address(String channel, int stream) {
    }

    /** A receiver as this CN's sealers know it: where it listens, and since which start. */
    private record Receiver(Address address, long incarnation) {
    }

    private final Aeron aeron;
    private final String channel;
    private final int stream;
    private final TransportContext transportContext;
    private final DispatchContext dispatchContext;
    private final ClusterSecret secret;
    private final long incarnation;
    private final RejectionLog rejections;
    private final Demultiplexer demultiplexer;
    /** Guarded by this. */
    private final Map<Address, Publication> publications = new HashMap<>();
    /** Guarded by this. */
    private final Map<Receiver, FrameSealer> sealers = new HashMap<>();
    /** Addresses whose publication has been connected once: sinks wait for that once per address. */
    private final Set<Address> connected = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<ExchangeKey, LocalInbound[]> inbounds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ExchangeKey, ExchangeCounters> counters = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ExchangeKey, ExchangeCredits> credits = new ConcurrentHashMap<>();
    /** Guarded by this. */
    private boolean closed;

    /**
     * Subscribes to {@code channel} and {@code stream} now, so other CNs can connect before any
     * exchange opens here.
     */
    public DataPlane(final Aeron aeron, final String channel, final int stream, final TransportContext transportContext,
            final DispatchContext dispatchContext) {
        this(aeron, aeron.addSubscription(channel, stream), channel, stream, transportContext, dispatchContext);
    }

    /**
     * Over a subscription made already (sharing a UDP port with other streams of the process), which
     * this then owns; {@code channel} and {@code stream} are where other CNs send to it.
     */
    public DataPlane(final Aeron aeron, final Subscription subscription, final String channel, final int stream,
            final TransportContext transportContext, final DispatchContext dispatchContext) {
        this(aeron, subscription, channel, stream, transportContext, dispatchContext, null,
                ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE), line -> { });
    }

    /**
     * As {@link #DataPlane(Aeron, Subscription, String, int, TransportContext, DispatchContext)}, sealing
     * and opening frames with {@code secret} (none when null).
     *
     * @param incarnation the process's incarnation, as it registered: the keys of the frames it receives
     *                    derive from it
     * @param log         where refused frames are reported, at a bounded rate
     */
    public DataPlane(final Aeron aeron, final Subscription subscription, final String channel, final int stream,
            final TransportContext transportContext, final DispatchContext dispatchContext, final ClusterSecret secret,
            final long incarnation, final Consumer<String> log) {
        this.aeron = aeron;
        this.channel = channel;
        this.stream = stream;
        this.transportContext = transportContext;
        this.dispatchContext = dispatchContext.validate();
        this.secret = secret;
        this.incarnation = incarnation;
        this.rejections = new RejectionLog("the data stream " + channel + " stream " + stream, log);
        this.demultiplexer = new Demultiplexer(new FrameSubscriber(subscription,
                secret == null ? null : new FrameOpener(secret, incarnation, channel, stream)), this.dispatchContext,
                rejections);
    }

    /** The channel this CN receives on. */
    public String channel() {
        return channel;
    }

    /** The stream this CN receives on. */
    public int stream() {
        return stream;
    }

    /**
     * The publication to the CN receiving on {@code targetChannel} and {@code targetStream}, added on
     * first use and kept until {@link #closePublicationsExcept} drops it or this closes: concurrent,
     * so every sink of the process sends on it.
     */
    synchronized Publication publication(final String targetChannel, final int targetStream) {
        if (closed) {
            throw new IllegalStateException("the CN receiving on " + channel + " stream " + stream
                    + " is closed: it sends nothing more");
        }
        final Address address = new Address(targetChannel, targetStream);
        Publication publication = publications.get(address);
        if (publication == null) {
            publication = aeron.addPublication(Endpoint.publicationChannel(targetChannel, transportContext),
                    targetStream);
            publications.put(address, publication);
        }
        return publication;
    }

    /**
     * A publisher for one sending thread over the shared publication to a CN, sealing for that CN's
     * incarnation {@code targetIncarnation} when there is a secret; closing it leaves the publication open.
     *
     * @throws IllegalStateException with a secret, when the target's incarnation is not known (0)
     */
    FramePublisher publisher(final String targetChannel, final int targetStream, final long targetIncarnation) {
        return FramePublisher.sharing(publication(targetChannel, targetStream),
                transportContext.idleKind().newIdleStrategy(), SystemNanoClock.INSTANCE,
                dispatchContext.disconnectTimeoutNs(), transportContext.stallTimeoutNs(),
                sealer(targetChannel, targetStream, targetIncarnation));
    }

    /** The numbering and key of frames to one receiver since its start, shared by every sender of the process. */
    private synchronized FrameSealer sealer(final String targetChannel, final int targetStream,
            final long targetIncarnation) {
        if (secret != null && targetIncarnation == 0) {
            throw new IllegalStateException("the CN receiving on " + targetChannel + " stream " + targetStream
                    + " has no known incarnation, so no key to seal frames for it: a cluster view with a secret"
                    + " names every CN's incarnation (the coordinator's PREPARE does)");
        }
        return sealers.computeIfAbsent(new Receiver(new Address(targetChannel, targetStream), targetIncarnation),
                r -> FrameSealer.of(secret, r.incarnation(), r.address().channel(), r.address().stream()));
    }

    /** Whether the publication to a CN is, or once was, connected: then no sink waits for it. */
    boolean isConnected(final String targetChannel, final int targetStream) {
        final Address address = new Address(targetChannel, targetStream);
        if (connected.contains(address)) {
            return true;
        }
        if (publication(targetChannel, targetStream).isConnected()) {
            connected.add(address);
            return true;
        }
        return false;
    }

    /**
     * Closes the publications to every CN not in {@code keep} (a view's channels), for CNs that left
     * the cluster; a later send to one of them adds it again.
     */
    public void closePublicationsExcept(final List<Channels> keep) {
        final List<Publication> toClose = new ArrayList<>();
        synchronized (this) {
            publications.entrySet().removeIf(e -> {
                for (final Channels view : keep) {
                    if (view.indexOf(e.getKey().channel(), e.getKey().stream()) >= 0) {
                        return false;
                    }
                }
                connected.remove(e.getKey());
                toClose.add(e.getValue());
                return true;
            });
            // A sealer made again later draws a new key, so forgetting one never repeats a nonce.
            sealers.keySet().removeIf(r -> !inViews(r, keep));
        }
        CloseHelper.closeAll(toClose);
    }

    /** Whether a view names this receiver, at its address and since the same start. */
    private static boolean inViews(final Receiver receiver, final List<Channels> views) {
        for (final Channels view : views) {
            final int cn = view.indexOf(receiver.address().channel(), receiver.address().stream());
            if (cn >= 0 && view.incarnationOf(cn) == receiver.incarnation()) {
                return true;
            }
        }
        return false;
    }

    /** Publications open now: at most one per other CN sent to. */
    public synchronized int publicationCount() {
        return publications.size();
    }

    /** What this CN's senders moved in an exchange, and the frames its receivers dropped. */
    ExchangeCounters counters(final Exchange exchange) {
        return counters.computeIfAbsent(new ExchangeKey(exchange.queryId(), exchange.exchangeId()),
                k -> new ExchangeCounters(exchange.topology().bucketCount()));
    }

    /**
     * The credit this CN's senders hold for the remote destinations of an exchange, made with the
     * credit window and registered with the demultiplexer when the first sink of the exchange opens.
     */
    ExchangeCredits credits(final Exchange exchange, final int cn) {
        return credits.computeIfAbsent(new ExchangeKey(exchange.queryId(), exchange.exchangeId()), k -> {
            final ExchangeCredits c = new ExchangeCredits(exchange.topology().bucketCount(),
                    dispatchContext.creditWindow());
            demultiplexer.registerCredits(exchange, cn, c);
            return c;
        });
    }

    /** The local queues of an exchange's destinations on CN {@code cn}, by core. */
    LocalInbound[] inbounds(final Exchange exchange, final int cn) {
        return inbounds.computeIfAbsent(new ExchangeKey(exchange.queryId(), exchange.exchangeId()), k -> {
            final int cores = exchange.topology().coresPerCn();
            final LocalInbound[] byCore = new LocalInbound[cores];
            for (int core = 0; core < cores; core++) {
                if (exchange.receives(exchange.topology().firstBucketOf(cn) + core)) {
                    byCore[core] = new LocalInbound(dispatchContext.queueCapacity());
                }
            }
            return byCore;
        });
    }

    /** Forgets an exchange's queues, counters and credits; frames still arriving for it are dropped. */
    void closeExchange(final Exchange exchange) {
        final ExchangeKey key = new ExchangeKey(exchange.queryId(), exchange.exchangeId());
        inbounds.remove(key);
        counters.remove(key);
        credits.remove(key);
        demultiplexer.closeExchange(exchange.queryId(), exchange.exchangeId());
    }

    Demultiplexer demultiplexer() {
        return demultiplexer;
    }

    TransportContext transportContext() {
        return transportContext;
    }

    public DispatchContext dispatchContext() {
        return dispatchContext;
    }

    /**
     * Frames this CN received and dropped: for destinations that had finished early or closed, for
     * exchanges it had closed, or kept past the route retention for a source that never opened.
     */
    public long droppedFrames() {
        return demultiplexer.droppedFrames();
    }

    /** CREDIT frames that did not fit their exchange, dropped. */
    public long badFrames() {
        return demultiplexer.badFrames();
    }

    /**
     * Frames refused before they were read: not sealed for this CN by a member of its cluster, altered,
     * seen before, or kept for a source not yet open beyond {@link DispatchContext#pendingBytes}.
     */
    public long rejectedFrames() {
        return rejections.total();
    }

    /**
     * Closes the subscription and the publications. Sources still open receive nothing more, sinks still
     * open fail their next remote send.
     */
    @Override
    public void close() {
        final List<Publication> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(publications.values());
            publications.clear();
        }
        try {
            demultiplexer.close();
        } finally {
            CloseHelper.closeAll(toClose);
        }
    }
}
