package io.sluice.dispatch.cluster;

import io.aeron.Aeron;
import io.sluice.dispatch.control.ControlAuthentication;
import io.sluice.dispatch.control.ControlLinkException;
import io.sluice.dispatch.control.ControlMessage.CancelRequest;
import io.sluice.dispatch.control.ControlMessage.Challenge;
import io.sluice.dispatch.control.ControlMessage.ClientHeartbeat;
import io.sluice.dispatch.control.ControlMessage.Hello;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.QueryAccepted;
import io.sluice.dispatch.control.ControlMessage.QueryDone;
import io.sluice.dispatch.control.ControlMessage.QueryFailed;
import io.sluice.dispatch.control.ControlMessage.QueryProgress;
import io.sluice.dispatch.control.ControlMessage.QueryRequest;
import io.sluice.dispatch.control.ControlMessage.Reject;
import io.sluice.dispatch.control.ControlMessage.ResultBatch;
import io.sluice.dispatch.control.ControlMessage.ResultEnd;
import io.sluice.dispatch.control.ControlMessage.Status;
import io.sluice.dispatch.control.ControlMessage.StatusRequest;
import io.sluice.dispatch.control.ControlMessage;
import io.sluice.dispatch.control.ControlPublisher;
import io.sluice.dispatch.control.ControlSubscriber;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.plan.Plan;
import io.sluice.engine.plan.PlanCodec;
import io.sluice.engine.plan.StrategyConfig;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.Doorbell;
import io.sluice.transport.DoorbellRinger;
import io.sluice.transport.Endpoint;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

/**
 * A client of a coordinator: sends it a plan and waits for the answer (the result rows, each join's
 * and group-by's strategy, the distributed plan and what moved where), or asks who is in the cluster.
 * A request waits while the coordinator is heard from (a running query's progress comes a few times a
 * second) and gives up after the client timeout of silence, naming the coordinator.
 *
 * <p>It first says {@link Hello} and waits for the coordinator's {@link Challenge}; its requests then
 * name that coordinator, and are tagged with the cluster secret when there is one (a coordinator that
 * cannot authenticate it answers {@code authentication failed}, which fails the request). While a
 * thread waits it sends a {@link ClientHeartbeat} each heartbeat interval: a client that stops (killed,
 * or its thread interrupted) has its queries cancelled by the coordinator. A query may carry a timeout,
 * which the coordinator enforces, queueing included; {@link #cancel} stops one from another thread.
 *
 * <p>Thread-safe: several threads may each wait for a request of their own (a status while a query
 * runs). Nobody owns a thread for the replies: a waiting thread polls them for everybody, under a lock
 * that a thread finding it taken skips, and each reply goes to the request it answers.
 */
public final class ClusterClient implements AutoCloseable {
    /** How long a request waits for the coordinator's first word on it before it goes again. */
    private static final long RESEND_NS = TimeUnit.MILLISECONDS.toNanos(500);

    private final StreamAddress replyTo;
    private final String coordinatorName;
    private final ClusterContext context;
    private final ControlSubscriber replies;
    private final ControlPublisher toCoordinator;
    private final ReentrantLock polling = new ReentrantLock();
    private final Map<Long, Reply> byRequest = new ConcurrentHashMap<>();
    private final Map<Long, Reply> byQuery = new ConcurrentHashMap<>();
    private final AtomicLong nextRequestId = new AtomicLong(ThreadLocalRandom.current().nextLong(1, 1L << 40));
    private final AtomicLong lastHeardNs = new AtomicLong(System.nanoTime());
    private final ControlSubscriber.Handler router = new ControlSubscriber.Handler() {
        @Override
        public void onMessage(final ControlMessage message) {
            route(message);
        }

        @Override
        public void onUnauthenticated(final ControlMessage decoded, final String source) {
            if (decoded instanceof Reject r) {
                refuseAll(r.reason().startsWith("authentication failed") ? r.reason()
                        : "authentication failed: the coordinator at " + coordinatorName + " refused this client in a"
                        + " message not signed with its cluster secret: " + r.reason());
            } else if (decoded instanceof Challenge) {
                refuseAll("authentication failed: the coordinator at " + coordinatorName + " answered with a"
                        + " challenge not signed with this client's cluster secret (it has another secret, or none):"
                        + " give every process of the cluster the same --secret-file (or " + ClusterSecret.FILE_ENV
                        + ")");
            }
        }
    };
    private final ControlAuthentication authentication;
    private final TransportContext transport;
    /** The coordinator incarnation that challenged this client (0: not yet); requests name it. */
    private volatile long challengedBy;
    /** The coordinator's doorbell port (0: none), rung with each request so the coordinator takes it at once. */
    private volatile int coordinatorDoorbell;
    private final String coordinatorHost;
    private final DoorbellRinger ringer = new DoorbellRinger();
    /** Rung by the coordinator when it sends the end of a query, so this process's driver takes it at once; null on IPC. */
    private final Doorbell doorbell;
    /** Whether anything has received at the coordinator's address since this client began. */
    private volatile boolean reached;

    ClusterClient(final Aeron aeron, final Listener listener, final Doorbell doorbell, final StreamAddress coordinator,
            final String coordinatorName, final ClusterContext context, final TransportContext transport) {
        this.doorbell = doorbell;
        this.replyTo = listener.address(0);
        this.coordinatorName = coordinatorName;
        this.coordinatorHost = coordinator.host();
        this.transport = transport;
        this.context = context.validate();
        this.authentication = this.context.authentication(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE));
        this.replies = new ControlSubscriber(listener.subscription(0), authentication, line -> { });
        this.toCoordinator = new ControlPublisher(aeron.addPublication(
                Endpoint.publicationChannel(coordinator.channel(), transport), coordinator.stream()), authentication, 0);
    }

    /**
     * A client of the coordinator at {@code coordinator}, receiving on a free UDP port of the address toward it.
     *
     * @throws IllegalArgumentException when the coordinator is not on a loopback address and the context has no
     *                                  cluster secret
     */
    public static ClusterClient udp(final Aeron aeron, final Endpoint coordinator, final ClusterContext context,
            final TransportContext transport) {
        LoopbackRule.check(context, "reach the coordinator at " + coordinator, coordinator);
        final Endpoint local = new Endpoint(Endpoint.localAddressToward(coordinator), 0);
        final Listener listener = Listener.udp(aeron, local, Streams.CONTROL);
        Doorbell doorbell = null;
        try {
            doorbell = Doorbell.open(local.host(), transport.activity(), "client");
            return new ClusterClient(aeron, listener, doorbell, new StreamAddress(coordinator.channel(), Streams.CONTROL),
                    coordinator.toString(), context, transport);
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(listener, doorbell);
            throw e;
        }
    }

    /** A client in slot {@code slot} of a process sharing the coordinator's media driver. */
    static ClusterClient ipc(final Aeron aeron, final int slot, final StreamAddress coordinator,
            final ClusterContext context, final TransportContext transport) {
        return new ClusterClient(aeron, Listener.ipc(aeron, Streams.IPC_CLIENT_BASE + slot), null, coordinator,
                "the embedded coordinator", context, transport);
    }

    /**
     * Waits until something receives at the coordinator's address, so that an address where nothing
     * listens fails at once, naming it and what to do, rather than after the client timeout.
     *
     * @throws ControlLinkException when nothing receives there within the connect timeout
     */
    public void awaitReachable() {
        final IdleStrategy idle = new SleepingMillisIdleStrategy(1);
        final long startNs = System.nanoTime();
        while (!toCoordinator.isConnected()) {
            if (System.nanoTime() - startNs > context.connectTimeoutNs()) {
                throw unreachable();
            }
            idle.idle();
        }
        reached = true;
    }

    private ControlLinkException unreachable() {
        return new ControlLinkException("no coordinator at " + coordinatorName + ": nothing received there within "
                + TimeUnit.NANOSECONDS.toMillis(context.connectTimeoutNs()) + " ms. Start one there (sluice coordinator"
                + " --listen " + coordinatorName + " --store DIR, or sluice cluster up --cn N --cores K --store DIR"
                + " --listen " + coordinatorName + "), or give the address a running coordinator printed"
                + " ('coordinator listening on HOST:PORT'); over a slow network give it longer, e.g. -D"
                + ClusterContext.CONNECT_TIMEOUT_PROP_NAME + "=5s");
    }

    /**
     * Runs a plan on {@code cnCount} CNs (0: every CN alive) with {@code cores} cores each (0: as many as
     * the CN with the fewest offers).
     *
     * @throws QueryFailedException when the query failed or the coordinator refused it
     * @throws ControlLinkException when the coordinator cannot be reached or stops answering
     */
    public Session.Execution execute(final String name, final Plan plan, final StrategyConfig config,
            final int cnCount, final int cores) {
        return execute(name, plan, config, cnCount, cores, 0);
    }

    /**
     * As {@link #execute(String, Plan, StrategyConfig, int, int)}, failing the query once it has taken
     * {@code timeoutMillis} from its arrival at the coordinator (0: no limit).
     *
     * @throws QueryFailedException with error type {@code TimeoutException} when it took too long
     */
    public Session.Execution execute(final String name, final Plan plan, final StrategyConfig config,
            final int cnCount, final int cores, final long timeoutMillis) {
        return execute(name, plan, config, cnCount, cores, timeoutMillis, ExplainText.NONE);
    }

    /**
     * As {@link #execute(String, Plan, StrategyConfig, int, int, long)}, the answer carrying the plan's EXPLAIN text
     * when {@code explain} asks for it.
     */
    public Session.Execution execute(final String name, final Plan plan, final StrategyConfig config,
            final int cnCount, final int cores, final long timeoutMillis, final ExplainText explain) {
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("a timeout of " + timeoutMillis + " ms: 0 (none) or more");
        }
        return execute(name, PlanCodec.encode(plan, config), cnCount, cores, timeoutMillis, explain);
    }

    /**
     * As {@link #execute(String, Plan, StrategyConfig, int, int, long)} for SQL text, which the coordinator plans
     * from its own store: this client needs none.
     */
    public Session.Execution executeSql(final String name, final String sql, final StrategyConfig config,
            final int cnCount, final int cores, final long timeoutMillis) {
        return executeSql(name, sql, config, cnCount, cores, timeoutMillis, ExplainText.NONE);
    }

    /**
     * As {@link #executeSql(String, String, StrategyConfig, int, int, long)}, the answer carrying the plan's
     * EXPLAIN text when {@code explain} asks for it.
     */
    public Session.Execution executeSql(final String name, final String sql, final StrategyConfig config,
            final int cnCount, final int cores, final long timeoutMillis, final ExplainText explain) {
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("a timeout of " + timeoutMillis + " ms: 0 (none) or more");
        }
        return execute(name, PlanCodec.encodeSql(sql, config), cnCount, cores, timeoutMillis, explain);
    }

    private Session.Execution execute(final String name, final byte[] encoded, final int cnCount, final int cores,
            final long timeoutMillis, final ExplainText explain) {
        final Reply reply = open();
        try {
            await(reply, () -> new QueryRequest(replyTo, reply.requestId, name, cnCount, cores, encoded, timeoutMillis,
                    explain == ExplainText.RENDERED));
        } finally {
            close(reply);
        }
        if (reply.failed != null) {
            throw new QueryFailedException(reply.failed.errorType(), reply.failed.message());
        }
        final QueryDone done = reply.done;
        final QueryResult result = ResultRows.decode(done.resultType(), reply.batches);
        return new Session.Execution(result, done.columns(), done.decisions(), done.explain(), done.stats(),
                done.usage());
    }

    /** The cluster's members as the coordinator sees them now. */
    public List<MemberStatus> status() {
        return clusterStatus().members();
    }

    /** The membership and the coordinator's own counts, as {@code cluster status} shows them. */
    public Status clusterStatus() {
        final Reply reply = open();
        try {
            await(reply, () -> new StatusRequest(replyTo, reply.requestId));
        } finally {
            close(reply);
        }
        return reply.status;
    }

    /**
     * Asks the coordinator to stop every query of this client still running or waiting (from another
     * thread, or a shutdown hook): each fails on every CN, its waiting thread gets
     * {@code QueryCancelledException}. Best effort, never waits longer than the client timeout.
     */
    public void cancelAll(final String reason) {
        for (final Reply r : byRequest.values()) {
            if (challengedBy != 0) {
                toCoordinator.offer(new CancelRequest(replyTo, r.requestId, reason));
            }
        }
    }

    private Reply open() {
        final Reply reply = new Reply(nextRequestId.getAndIncrement());
        byRequest.put(reply.requestId, reply);
        return reply;
    }

    private void close(final Reply reply) {
        byRequest.remove(reply.requestId);
        if (reply.queryId != 0) {
            byQuery.remove(reply.queryId);
        }
    }

    private void send(final ControlMessage message) {
        try {
            toCoordinator.send(message, context.clientTimeoutNs());
        } catch (final ControlLinkException e) {
            throw new ControlLinkException("cannot reach the coordinator at " + coordinatorName + ": is it running"
                    + " (sluice coordinator --listen " + coordinatorName + " --store DIR)? " + e.getMessage());
        }
    }

    /**
     * Sends a request and polls replies (unless another thread is) until it is answered, or the
     * coordinator fell silent. Until the coordinator has challenged this client, it says hello first.
     * The request goes again, with the same id, until the coordinator has acknowledged it: a message sent
     * while a restarted coordinator's side of the publication was still being set up is lost, and the
     * coordinator ignores a request id it has seen; after a few unanswered sends the client makes
     * contact again (the coordinator may have restarted, and refuse what names its predecessor).
     */
    private void await(final Reply reply, final Supplier<ControlMessage> request) {
        final IdleStrategy idle = new ControlIdle(() -> true, transport);
        final long sentNs = System.nanoTime();
        long lastHelloNs = sentNs - 2 * RESEND_NS;
        long lastSentNs = sentNs;
        long lastHeartbeatNs = sentNs;
        boolean requestSent = false;
        int unanswered = 0;
        while (!reply.answered()) {
            final long beforeNs = System.nanoTime();
            if (challengedBy == 0) {
                requestSent = false;
                if (!toCoordinator.isConnected()) {
                    // Nothing receives there: fail soon if nothing ever did, else wait out the silence below.
                    if (!reached && beforeNs - sentNs > context.connectTimeoutNs()) {
                        throw unreachable();
                    }
                } else if (beforeNs - lastHelloNs > RESEND_NS) {
                    reached = true;
                    send(new Hello(replyTo, authentication.incarnation(), doorbell == null ? 0 : doorbell.port()));
                    lastHelloNs = beforeNs;
                }
            } else if (!reply.acknowledged && (!requestSent || beforeNs - lastSentNs > RESEND_NS)) {
                if (requestSent && ++unanswered >= 3) {
                    // Challenged, but the request goes unanswered: make contact again.
                    challengedBy = 0;
                    toCoordinator.receiver(0);
                    unanswered = 0;
                    continue;
                }
                send(request.get());
                // The coordinator's driver and control loop take it at once, as does this process's driver.
                transport.activity().wake();
                ringer.ring(coordinatorHost, coordinatorDoorbell);
                requestSent = true;
                lastSentNs = beforeNs;
            } else if (beforeNs - lastHeartbeatNs > context.heartbeatIntervalNs()) {
                toCoordinator.offer(new ClientHeartbeat(replyTo));
                lastHeartbeatNs = beforeNs;
            }
            int work = 0;
            if (polling.tryLock()) {
                try {
                    work = replies.poll(router, 64);
                } finally {
                    polling.unlock();
                }
            }
            final long now = System.nanoTime();
            if (work > 0) {
                lastHeardNs.set(now);
                idle.reset();
            } else if (now - Math.max(sentNs, lastHeardNs.get()) > context.clientTimeoutNs()) {
                throw new ControlLinkException("the coordinator at " + coordinatorName + " did not answer for "
                        + TimeUnit.NANOSECONDS.toMillis(context.clientTimeoutNs()) + " ms"
                        + (reply.queryId == 0 ? "" : " while it ran query " + reply.queryId)
                        + ": it stopped or is unreachable (" + ClusterContext.CLIENT_TIMEOUT_PROP_NAME + ")");
            } else {
                idle.idle();
            }
        }
    }

    /** Hands a reply to the request it answers; one for no open request is dropped. */
    private void route(final ControlMessage message) {
        if (message instanceof Challenge c) {
            coordinatorDoorbell = c.doorbell();
            challengedBy = c.coordinatorIncarnation();
            toCoordinator.receiver(challengedBy);
        } else if (message instanceof QueryProgress p) {
            final Reply r = byRequest.get(p.requestId());
            if (r != null) {
                // Running, or waiting in line for a place: either way it was received.
                r.acknowledged = true;
            }
        } else if (message instanceof QueryAccepted a) {
            final Reply r = byRequest.get(a.requestId());
            if (r != null) {
                r.queryId = a.queryId();
                byQuery.put(a.queryId(), r);
                r.acknowledged = true;
            }
        } else if (message instanceof ResultBatch b) {
            final Reply r = byQuery.get(b.queryId());
            if (r != null) {
                r.batches.add(b);
            }
        } else if (message instanceof ResultEnd e) {
            final Reply r = byQuery.get(e.queryId());
            if (r != null && e.batches() != r.batches.size()) {
                r.failed = new QueryFailed(r.requestId, e.queryId(), "IllegalStateException", "query " + e.queryId()
                        + " sent " + e.batches() + " result batches but " + r.batches.size() + " arrived");
            }
        } else if (message instanceof QueryDone d) {
            final Reply r = byRequest.get(d.requestId());
            if (r != null) {
                r.done = d;
            }
        } else if (message instanceof QueryFailed f) {
            final Reply r = byRequest.get(f.requestId());
            if (r != null) {
                r.failed = f;
                r.acknowledged = true;
            }
        } else if (message instanceof Status s) {
            final Reply r = byRequest.get(s.requestId());
            if (r != null) {
                r.status = s;
            }
        } else if (message instanceof Reject r) {
            refuseAll(r.reason());
        }
    }

    private void refuseAll(final String why) {
        for (final Reply r : byRequest.values()) {
            r.refusal = why;
        }
    }

    /** What came back for one request; written by the polling thread, read by the request's. */
    private static final class Reply {
        final long requestId;
        volatile long queryId;
        final List<ResultBatch> batches = new ArrayList<>();
        volatile QueryDone done;
        volatile QueryFailed failed;
        volatile Status status;
        volatile String refusal;
        /** The coordinator has answered something for this request: it is not sent again. */
        volatile boolean acknowledged;

        Reply(final long requestId) {
            this.requestId = requestId;
        }

        boolean answered() {
            if (refusal != null) {
                throw new QueryFailedException(refusal.startsWith("authentication failed")
                        ? "AuthenticationException" : "RejectedException", refusal);
            }
            return done != null || failed != null || status != null;
        }
    }

    /** Where this client receives replies. */
    public StreamAddress replyTo() {
        return replyTo;
    }

    @Override
    public void close() {
        polling.lock();
        try {
            CloseHelper.closeAll(toCoordinator, replies, ringer, doorbell);
        } finally {
            polling.unlock();
        }
    }
}
