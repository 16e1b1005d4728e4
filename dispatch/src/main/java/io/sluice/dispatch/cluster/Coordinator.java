package io.sluice.dispatch.cluster;

import io.aeron.Aeron;
import io.sluice.dispatch.control.ControlMessage;
import io.sluice.dispatch.control.ControlMessage.Cancel;
import io.sluice.dispatch.control.ControlMessage.CnHeartbeat;
import io.sluice.dispatch.control.ControlMessage.Failed;
import io.sluice.dispatch.control.ControlMessage.Finished;
import io.sluice.dispatch.control.ControlMessage.Leave;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Prepare;
import io.sluice.dispatch.control.ControlMessage.Prepared;
import io.sluice.dispatch.control.ControlMessage.QueryAccepted;
import io.sluice.dispatch.control.ControlMessage.QueryFailed;
import io.sluice.dispatch.control.ControlMessage.QueryProgress;
import io.sluice.dispatch.control.ControlMessage.QueryRequest;
import io.sluice.dispatch.control.ControlMessage.Register;
import io.sluice.dispatch.control.ControlMessage.Reject;
import io.sluice.dispatch.control.ControlMessage.ResultBatch;
import io.sluice.dispatch.control.ControlMessage.ResultEnd;
import io.sluice.dispatch.control.ControlMessage.Start;
import io.sluice.dispatch.control.ControlMessage.Status;
import io.sluice.dispatch.control.ControlMessage.StatusRequest;
import io.sluice.dispatch.control.ControlPublisher;
import io.sluice.dispatch.control.ControlSubscriber;
import io.sluice.dispatch.control.ControlVersionException;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Store;
import io.sluice.transport.Endpoint;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;

/**
 * The coordinator of a cluster: keeps the membership (CNs register, heartbeat, leave or fall silent),
 * plans each query a client sends for the CNs alive when it arrives, ships it to them, starts it once
 * every CN has prepared, gathers their stats and CN 0's result rows, and answers the client. It never
 * touches the data: batches go CN to CN.
 *
 * <p>One control loop thread (an Agrona agent) does all of it and never waits: it polls the control
 * stream and the result stream, sends heartbeats, checks every member's silence, and hands messages to
 * its peers' outboxes ({@link Peer}), which go out when their publications take them. A CN silent for
 * the suspect timeout is suspect (still a member, but not given new queries), for the dead timeout
 * dead: it leaves the membership and every query it was in fails, naming it, and the others of those
 * queries are told to cancel. Query ids start from a random number per coordinator, so a restarted
 * coordinator never reuses an id its CNs saw.
 */
public final class Coordinator implements Agent, AutoCloseable {
    private static final int FRAGMENT_LIMIT = 32;
    /**
     * How long a query whose CNs report only failures that follow another CN's waits for that CN's own
     * report, the first cause, before it fails with what they heard.
     */
    private static final long SECONDARY_GRACE_NS = TimeUnit.SECONDS.toNanos(1);
    /** Client peers unused this long, with nothing waiting, are closed. */
    private static final long CLIENT_IDLE_NS = TimeUnit.MINUTES.toNanos(1);

    private final Aeron aeron;
    private final StreamAddress control;
    private final StreamAddress results;
    private final String listening;
    private final Store store;
    private final ClusterContext context;
    private final TransportContext transport;
    private final Consumer<String> log;
    private final long incarnation = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    private final ControlSubscriber controlIn;
    private final ControlSubscriber resultsIn;
    private final AgentRunner runner;
    private final ControlSubscriber.Handler handler = new ControlSubscriber.Handler() {
        @Override
        public void onMessage(final ControlMessage message) {
            handle(message);
        }

        @Override
        public void onVersionMismatch(final ControlVersionException mismatch) {
            if (mismatch.replyTo() != null) {
                try (Peer peer = peer(mismatch.replyTo())) {
                    peer.send(new Reject(mismatch.getMessage()));
                }
            }
            log.accept("coordinator: refused a message of another version: " + mismatch.getMessage());
        }
    };

    // The control loop's state.
    private final Membership members;
    private final Map<Long, CoordinatedQuery> queries = new LinkedHashMap<>();
    private final Map<StreamAddress, Peer> clients = new HashMap<>();
    /** The latest client requests, so a request sent again is not run twice. */
    private final Map<RequestKey, Boolean> recentRequests = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<RequestKey, Boolean> eldest) {
            return size() > 4096;
        }
    };
    private long nextQueryId;
    private long lastHeartbeatNs;
    private volatile long badMessages;
    private boolean started;

    /**
     * A coordinator receiving control messages on the listener's first stream and result rows on its
     * second, checking queries against {@code store}; {@link #start} runs it. It owns the listener's
     * subscriptions from now on.
     *
     * @param log where membership changes and refusals are reported, a line each
     */
    Coordinator(final Aeron aeron, final Listener listener, final Store store, final ClusterContext context,
            final TransportContext transport, final Consumer<String> log) {
        this.aeron = aeron;
        this.control = listener.address(0);
        this.results = listener.address(1);
        this.listening = listener.describe();
        this.store = store;
        this.context = context.validate();
        this.transport = transport;
        this.log = log;
        this.nextQueryId = (ThreadLocalRandom.current().nextLong(1L << 20) << 32) + 1;
        this.members = new Membership(this.context, incarnation, results, this::peer, this::failQueriesOf, log);
        this.controlIn = new ControlSubscriber(listener.subscription(0));
        this.resultsIn = new ControlSubscriber(listener.subscription(1));
        this.runner = new AgentRunner(new ControlIdle(() -> !queries.isEmpty()), t -> log.accept("coordinator: " + t), null, this);
    }

    /** A coordinator listening on UDP {@code endpoint} (port 0: any free port). */
    public static Coordinator udp(final Aeron aeron, final Endpoint endpoint, final Store store,
            final ClusterContext context, final TransportContext transport, final Consumer<String> log) {
        return new Coordinator(aeron, Listener.udp(aeron, endpoint, Streams.CONTROL, Streams.RESULTS), store, context,
                transport, log);
    }

    /** A coordinator on {@code aeron:ipc}, for CNs and clients sharing its media driver. */
    public static Coordinator ipc(final Aeron aeron, final Store store, final ClusterContext context,
            final TransportContext transport, final Consumer<String> log) {
        return new Coordinator(aeron, Listener.ipc(aeron, Streams.CONTROL, Streams.RESULTS), store, context,
                transport, log);
    }

    /** HOST:PORT it listens on (the port it got when asked for 0), or its IPC stream. */
    public String listening() {
        return listening;
    }

    /** Starts the control loop on its own thread. */
    public Coordinator start() {
        AgentRunner.startOnThread(runner);
        started = true;
        return this;
    }

    /** Where CNs and clients send control messages. */
    public StreamAddress control() {
        return control;
    }

    /** The members as of the last change or heartbeat round (a few times a second); any thread. */
    public List<MemberStatus> membership() {
        return members.snapshot();
    }

    /** Control messages that did not decode or came in another version. */
    public long badMessages() {
        return badMessages;
    }

    @Override
    public String roleName() {
        return "sluice-coordinator";
    }

    @Override
    public int doWork() {
        int work = controlIn.poll(handler, FRAGMENT_LIMIT) + resultsIn.poll(handler, FRAGMENT_LIMIT);
        final long now = System.nanoTime();
        if (now - lastHeartbeatNs >= context.heartbeatIntervalNs()) {
            lastHeartbeatNs = now;
            work += heartbeat(now);
        }
        work += members.drain();
        for (final Peer client : clients.values()) {
            work += client.drain();
        }
        badMessages = controlIn.badMessages() + resultsIn.badMessages();
        return work;
    }

    /** Heartbeats to members and progress to clients; members silent too long leave; stuck prepares fail. */
    private int heartbeat(final long now) {
        final int left = members.heartbeatRound(now);
        for (final CoordinatedQuery q : new ArrayList<>(queries.values())) {
            if (q.secondary != null && now - q.secondaryAtNs > SECONDARY_GRACE_NS) {
                // The CN whose failure the others heard of never said why: report what they heard.
                fail(q, q.secondary);
            } else if (q.phase == CoordinatedQuery.Phase.PREPARING && now - q.startNs > context.prepareTimeoutNs()) {
                fail(q, "TimeoutException", q.describe() + ": " + q.notPrepared() + " did not prepare within "
                        + TimeUnit.NANOSECONDS.toMillis(context.prepareTimeoutNs()) + " ms (raise "
                        + ClusterContext.PREPARE_TIMEOUT_PROP_NAME + " for stores whose tables take long to open)");
            } else {
                q.client.send(new QueryProgress(q.requestId, q.queryId, TimeUnit.NANOSECONDS.toMillis(now - q.startNs)));
            }
        }
        for (final Iterator<Peer> it = clients.values().iterator(); it.hasNext(); ) {
            final Peer client = it.next();
            if (client.waiting() == 0 && now - client.lastUsedNs() > CLIENT_IDLE_NS && !inUse(client)) {
                client.close();
                it.remove();
            }
        }
        return left;
    }

    private boolean inUse(final Peer client) {
        for (final CoordinatedQuery q : queries.values()) {
            if (q.client == client) {
                return true;
            }
        }
        return false;
    }

    private void handle(final ControlMessage message) {
        final long now = System.nanoTime();
        if (message instanceof Register r) {
            members.register(r, now);
        } else if (message instanceof CnHeartbeat h) {
            members.heartbeat(h, now);
        } else if (message instanceof Leave l) {
            members.leave(l.memberId(), l.incarnation());
        } else if (message instanceof Prepared p) {
            final CoordinatedQuery q = queryOf(p.queryId(), p.memberId(), now);
            if (q != null && q.phase == CoordinatedQuery.Phase.PREPARING && q.prepared(q.indexOf(p.memberId()))) {
                q.phase = CoordinatedQuery.Phase.RUNNING;
                for (final Member m : q.cns) {
                    m.peer.send(new Start(q.queryId));
                }
            }
        } else if (message instanceof Finished f) {
            final CoordinatedQuery q = queryOf(f.queryId(), f.memberId(), now);
            if (q != null) {
                q.finished(q.indexOf(f.memberId()), f);
                completeIfDone(q, now);
            }
        } else if (message instanceof Failed f) {
            final CoordinatedQuery q = queryOf(f.queryId(), f.memberId(), now);
            if (q != null && f.secondary()) {
                if (q.secondary == null) {
                    q.secondary = f;
                    q.secondaryAtNs = now;
                }
            } else if (q != null) {
                fail(q, f);
            }
        } else if (message instanceof ResultBatch b) {
            final CoordinatedQuery q = queries.get(b.queryId());
            if (q != null) {
                q.result(b);
            }
        } else if (message instanceof ResultEnd e) {
            final CoordinatedQuery q = queries.get(e.queryId());
            if (q != null) {
                q.resultsEnded(e);
                completeIfDone(q, now);
            }
        } else if (message instanceof QueryRequest r) {
            startQuery(r, now);
        } else if (message instanceof StatusRequest s) {
            client(s.replyTo()).send(new Status(s.requestId(), incarnation, members.epoch(), members.status(now)));
        } else {
            log.accept("coordinator: ignored a " + message.getClass().getSimpleName() + ", which only CNs and clients take");
        }
    }

    /** The query a CN's message is about, counting the message as a sign of life; null when unknown. */
    private CoordinatedQuery queryOf(final long queryId, final long memberId, final long now) {
        members.heard(memberId, now);
        final CoordinatedQuery q = queries.get(queryId);
        return q != null && q.indexOf(memberId) >= 0 ? q : null;
    }

    /** The queries a CN that left was in fail with why it left. */
    private void failQueriesOf(final Member m, final String why) {
        for (final CoordinatedQuery q : new ArrayList<>(queries.values())) {
            if (q.indexOf(m.memberId) >= 0) {
                fail(q, "CnLostException", q.describe() + " failed: " + why);
            }
        }
    }

    private void startQuery(final QueryRequest r, final long now) {
        final Peer client = client(r.replyTo());
        if (recentRequests.put(new RequestKey(r.replyTo(), r.requestId()), Boolean.TRUE) != null) {
            // Sent again before our first answer reached the client: the query runs once.
            return;
        }
        final long queryId = nextQueryId++;
        final List<Member> alive = members.usable(now);
        final int wanted = r.cnCount() == 0 ? alive.size() : r.cnCount();
        final String refusal;
        if (alive.isEmpty()) {
            refusal = "no CN is alive in the cluster: start one with sluice cn --coordinator " + listening
                    + " --store DIR --cores K";
        } else if (wanted < 0 || wanted > alive.size()) {
            refusal = "the query asks for " + wanted + " CNs but " + alive.size() + " " + (alive.size() == 1 ? "is" : "are")
                    + " alive (" + names(alive) + "): ask for at most " + alive.size() + " with --cn, or start more CNs";
        } else if (r.cores() < 0) {
            refusal = "cores per CN must be 1 or more, got " + r.cores();
        } else {
            refusal = PlanTables.refusal(r.plan(), store);
        }
        if (refusal != null) {
            client.send(new QueryFailed(r.requestId(), queryId, "IllegalArgumentException", refusal));
            return;
        }
        final List<Member> cns = alive.subList(0, wanted);
        int cores = r.cores();
        if (cores == 0) {
            cores = Integer.MAX_VALUE;
            for (final Member m : cns) {
                cores = Math.min(cores, m.cores);
            }
        }
        try {
            new Topology(wanted, cores);
        } catch (final IllegalArgumentException e) {
            client.send(new QueryFailed(r.requestId(), queryId, "IllegalArgumentException", e.getMessage()));
            return;
        }
        final CoordinatedQuery q = new CoordinatedQuery(queryId, r.requestId(), r.name(), client, cns, cores, now);
        queries.put(queryId, q);
        final List<StreamAddress> data = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final Member m : cns) {
            data.add(m.data);
            names.add(m.name);
        }
        client.send(new QueryAccepted(r.requestId(), queryId, wanted, cores, names));
        for (int i = 0; i < cns.size(); i++) {
            cns.get(i).peer.send(new Prepare(queryId, r.name(), i, wanted, cores, data, r.plan()));
        }
    }

    private void completeIfDone(final CoordinatedQuery q, final long now) {
        if (!q.complete()) {
            return;
        }
        queries.remove(q.queryId);
        for (final ResultBatch b : q.results()) {
            q.client.send(b);
        }
        q.client.send(q.resultEnd());
        q.client.send(q.done(now));
    }

    /** Fails a query with a CN's report, naming the CN. */
    private void fail(final CoordinatedQuery q, final Failed f) {
        final int index = q.indexOf(f.memberId());
        fail(q, f.errorType(), q.describe() + " failed on CN " + q.cns.get(index).name + " (" + index + " of "
                + q.cns.size() + "): " + f.message());
    }

    /** Fails a query: every CN of it is told to cancel (idempotent there), the client gets the cause. */
    private void fail(final CoordinatedQuery q, final String errorType, final String message) {
        if (queries.remove(q.queryId) == null) {
            return;
        }
        for (final Member m : q.cns) {
            if (members.contains(m)) {
                m.peer.send(new Cancel(q.queryId, message));
            }
        }
        q.client.send(new QueryFailed(q.requestId, q.queryId, errorType, message));
    }

    private record RequestKey(StreamAddress client, long requestId) {
    }

    private Peer client(final StreamAddress replyTo) {
        return clients.computeIfAbsent(replyTo, this::peer);
    }

    private Peer peer(final StreamAddress address) {
        return new Peer(new ControlPublisher(aeron.addPublication(
                Endpoint.publicationChannel(address.channel(), transport), address.stream())));
    }

    private static String names(final List<Member> members) {
        final List<String> names = new ArrayList<>();
        for (final Member m : members) {
            names.add(m.name);
        }
        return String.join(", ", names);
    }

    /** Tells every member the coordinator stops (best effort), then closes its subscriptions and publications. */
    @Override
    public void onClose() {
        members.shutdown("the coordinator at " + listening + " stopped");
        CloseHelper.closeAll(clients.values());
        clients.clear();
        CloseHelper.closeAll(controlIn, resultsIn);
    }

    /** Stops the control loop (telling the members) and releases its Aeron resources; the client stays its owner's. */
    @Override
    public void close() {
        if (started) {
            CloseHelper.close(runner);
        } else {
            onClose();
        }
    }
}
