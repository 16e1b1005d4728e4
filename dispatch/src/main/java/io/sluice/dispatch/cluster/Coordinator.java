package io.sluice.dispatch.cluster;

import io.aeron.Aeron;
import io.sluice.dispatch.control.CachedBlocks;
import io.sluice.dispatch.control.ControlAuthentication;
import io.sluice.dispatch.control.ControlMessage.Cancel;
import io.sluice.dispatch.control.ControlMessage.CancelRequest;
import io.sluice.dispatch.control.ControlMessage.Challenge;
import io.sluice.dispatch.control.ControlMessage.ClientHeartbeat;
import io.sluice.dispatch.control.ControlMessage.CnHeartbeat;
import io.sluice.dispatch.control.ControlMessage.Failed;
import io.sluice.dispatch.control.ControlMessage.FilterPartials;
import io.sluice.dispatch.control.ControlMessage.FilterReady;
import io.sluice.dispatch.control.ControlMessage.Finished;
import io.sluice.dispatch.control.ControlMessage.Hello;
import io.sluice.dispatch.control.ControlMessage.Leave;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Prepare;
import io.sluice.dispatch.control.ControlMessage.Prepared;
import io.sluice.dispatch.control.ControlMessage.QueryAccepted;
import io.sluice.dispatch.control.ControlMessage.QueryDone;
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
import io.sluice.dispatch.control.ControlMessage;
import io.sluice.dispatch.control.ControlPublisher;
import io.sluice.dispatch.control.ControlSubscriber;
import io.sluice.dispatch.control.ControlVersionException;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.shuffle.Topology;
import io.sluice.format.spi.Catalog;
import io.sluice.storage.Store;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.Doorbell;
import io.sluice.transport.DoorbellRinger;
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
 * every CN has prepared (a one-CN query starts itself), relays CN 0's result batches to the client as they
 * arrive, gathers the CNs' stats, and answers the client. It never touches the data: batches go CN to CN.
 *
 * <p>One control loop thread (an Agrona agent) does all of it and never waits: it polls the control
 * stream and the result stream, sends heartbeats, checks every member's silence, and hands messages to
 * its peers' outboxes ({@link Peer}), which go out when their publications take them. A CN silent for
 * the suspect timeout is suspect (still a member, but not given new queries), for the dead timeout
 * dead: it leaves the membership and every query it was in fails, naming it, and the others of those
 * queries are told to cancel. Query ids start from a random number per coordinator, so a restarted
 * coordinator never reuses an id its CNs saw.
 *
 * <p>Every process first says {@link Hello} and gets the coordinator's incarnation as its challenge,
 * which every later message it sends names ({@link ControlSubscriber} refuses others). With a cluster
 * secret every message is tagged and checked; a stranger without it is told {@code authentication
 * failed} ({@link OneOffReplies}) and nothing it sent is acted on. At most
 * {@link ClusterContext#maxQueries} queries run at once; the others wait in a {@link QueryLine}. A query
 * fails when it passes its own timeout, and is cancelled when its client asks or falls silent for the
 * dead timeout (a client sends {@link ClientHeartbeat}s while it waits).
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
    private final CoordinatorPlanner planner;
    private final ClusterContext context;
    private final TransportContext transport;
    private final Consumer<String> log;
    private final long incarnation = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    private final ControlAuthentication authentication;
    private final ControlSubscriber controlIn;
    private final ControlSubscriber resultsIn;
    private final AgentRunner runner;
    /** Wakes this process when a client rings it before a query; null on IPC. */
    private final Doorbell doorbell;
    private final DoorbellRinger ringer = new DoorbellRinger();
    private final ControlSubscriber.Handler handler = new ControlSubscriber.Handler() {
        @Override
        public void onMessage(final ControlMessage message) {
            handle(message);
        }

        @Override
        public void onVersionMismatch(final ControlVersionException mismatch) {
            if (mismatch.replyTo() != null) {
                strangers.send(mismatch.replyTo(), new Reject(mismatch.getMessage()), System.nanoTime());
            }
        }

        @Override
        public void onUnauthenticated(final ControlMessage decoded, final String source) {
            final StreamAddress replyTo = replyToOf(decoded);
            if (replyTo != null) {
                strangers.send(replyTo, new Reject("authentication failed: the coordinator at " + listening
                        + " requires its cluster secret, and the message from " + source + " is not signed with it:"
                        + " give every process of the cluster the same --secret-file (or "
                        + ClusterSecret.FILE_ENV + ")"), System.nanoTime());
            }
        }
    };

    // The control loop's state.
    private final Membership members;
    private final Map<Long, CoordinatedQuery> queries = new LinkedHashMap<>();
    /** Queries whose plans the planning thread decides now, by query id. */
    private final Map<Long, Planning> planning = new LinkedHashMap<>();
    private final Map<StreamAddress, Peer> clients = new HashMap<>();
    private final QueryLine line;
    private final OneOffReplies strangers = new OneOffReplies(a -> peer(a, 0));
    /** The latest client requests, so a request sent again is not run twice. */
    private final Map<RequestKey, Boolean> recentRequests = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<RequestKey, Boolean> eldest) {
            return size() > 4096;
        }
    };
    private long nextQueryId;
    private long lastHeartbeatNs;
    /** When the control loop's last duty cycle began (0: never). */
    private long lastCycleNs;
    private volatile long badMessages;
    /** Start messages sent and result batches relayed, over this coordinator's life (tests and metrics). */
    private volatile long startsSent;
    private volatile long resultBatchesRelayed;
    /** Hears about each query (metrics); set at any time. */
    private volatile QueryListener listener = QueryListener.NONE;
    private boolean started;

    /**
     * A coordinator receiving control messages on the listener's first stream and result rows on its
     * second, checking queries against {@code store}; {@link #start} runs it. It owns the listener's
     * subscriptions from now on. With no store (null: the CNs read tables through another catalog, such as
     * Parquet files) a query naming a missing table fails on the CNs, with their catalog's error.
     *
     * @param log where membership changes and refusals are reported, a line each
     */
    Coordinator(final Aeron aeron, final Listener listener, final Doorbell doorbell, final Store store,
            final ClusterContext context, final TransportContext transport, final Consumer<String> log) {
        this.aeron = aeron;
        this.doorbell = doorbell;
        this.control = listener.address(0);
        this.results = listener.address(1);
        this.listening = listener.describe();
        this.store = store;
        this.planner = new CoordinatorPlanner(store, transport.activity()::wake);
        this.context = context.validate();
        this.transport = transport;
        this.log = log;
        this.nextQueryId = (ThreadLocalRandom.current().nextLong(1L << 20) << 32) + 1;
        this.authentication = this.context.authentication(incarnation);
        this.line = new QueryLine(this.context);
        this.members = new Membership(this.context, incarnation, results, this::peer, strangers, this::failQueriesOf,
                log);
        this.controlIn = new ControlSubscriber(listener.subscription(0), authentication, log);
        this.resultsIn = new ControlSubscriber(listener.subscription(1), authentication, log);
        this.runner = new AgentRunner(new ControlIdle(() -> !queries.isEmpty() || !planning.isEmpty(), transport), t -> log.accept("coordinator: " + t), null, this);
    }

    /**
     * A coordinator listening on UDP {@code endpoint} (port 0: any free port).
     *
     * @throws IllegalArgumentException when {@code endpoint} is not a loopback address and the context has
     *                                  no cluster secret: without one, only this host may reach a cluster
     */
    public static Coordinator udp(final Aeron aeron, final Endpoint endpoint, final Store store,
            final ClusterContext context, final TransportContext transport, final Consumer<String> log) {
        LoopbackRule.check(context, "listen on " + endpoint, endpoint);
        final Listener listener = Listener.udp(aeron, endpoint, Streams.CONTROL, Streams.RESULTS);
        Doorbell doorbell = null;
        try {
            doorbell = Doorbell.open(endpoint.host(), transport.activity(), "coordinator");
            return new Coordinator(aeron, listener, doorbell, store, context, transport, log);
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(listener, doorbell);
            throw e;
        }
    }

    /** A coordinator on {@code aeron:ipc}, for CNs and clients sharing its media driver. */
    public static Coordinator ipc(final Aeron aeron, final Store store, final ClusterContext context,
            final TransportContext transport, final Consumer<String> log) {
        return new Coordinator(aeron, Listener.ipc(aeron, Streams.CONTROL, Streams.RESULTS), null, store, context,
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

    /** Sets who hears about each query it runs (metrics); {@link QueryListener#NONE} by default. */
    public Coordinator listener(final QueryListener queryListener) {
        this.listener = queryListener;
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

    /**
     * Records that this coordinator's own process starts the CN of this name and process id (as
     * {@code sluice cluster up} does): {@code cluster status} marks it launched, and a CN that joins without
     * being announced so is named in the log as started apart, which stopping this process does not stop.
     * Any thread, before that CN registers.
     */
    public void launching(final String name, final long pid) {
        members.launching(name, pid);
    }

    /**
     * Records that {@code cn} runs in this coordinator's process (an embedded cluster): its liveness is this JVM's,
     * so its silence (its control loop starved by the workers of an oversubscribed JVM) never makes it dead; it
     * leaves when it says so or once it is closed. Any thread, before that CN starts.
     */
    void inProcess(final CnServer cn) {
        members.inProcess(cn.incarnation(), cn::runs);
    }

    /**
     * Control messages dropped unread: undecodable, of another version, not signed with the cluster
     * secret, replayed, or meant for another receiver.
     */
    public long badMessages() {
        return badMessages;
    }

    /** Start messages sent to CNs: one per CN of each query of several CNs; a one-CN query runs without. */
    public long startsSent() {
        return startsSent;
    }

    /** Result batches relayed to clients, each as it arrived from its query's CN 0. */
    public long resultBatchesRelayed() {
        return resultBatchesRelayed;
    }

    @Override
    public String roleName() {
        return "sluice-coordinator";
    }

    @Override
    public int doWork() {
        final long cycleNs = System.nanoTime();
        // A loop that did not run for longer than a heartbeat interval was paused itself (a collection, a starved
        // process): its members could not be heard meanwhile, and in one JVM they were paused too.
        if (lastCycleNs != 0 && cycleNs - lastCycleNs > context.heartbeatIntervalNs()) {
            members.excuse(cycleNs - lastCycleNs - context.heartbeatIntervalNs());
        }
        lastCycleNs = cycleNs;
        int work = controlIn.poll(handler, FRAGMENT_LIMIT) + resultsIn.poll(handler, FRAGMENT_LIMIT);
        final long now = System.nanoTime();
        if (now - lastHeartbeatNs >= context.heartbeatIntervalNs()) {
            lastHeartbeatNs = now;
            work += heartbeat(now);
        }
        work += decided(now);
        work += members.drain();
        for (final Peer client : clients.values()) {
            work += client.drain();
        }
        work += strangers.drain(now);
        badMessages = controlIn.rejectedMessages() + resultsIn.rejectedMessages();
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
            } else if (q.timeoutMillis != 0 && now - q.deadlineNs > 0) {
                fail(q, "TimeoutException", q.describe() + " reached its timeout of " + q.timeoutMillis + " ms");
            } else if (now - q.client.heardNs() > context.deadTimeoutNs()) {
                fail(q, "QueryCancelledException", q.describe() + " was cancelled: its client went away (silent for "
                        + TimeUnit.NANOSECONDS.toMillis(now - q.client.heardNs()) + " ms)");
            } else {
                q.client.send(new QueryProgress(q.requestId, q.queryId, TimeUnit.NANOSECONDS.toMillis(now - q.startNs)));
            }
        }
        for (final Planning p : planning.values()) {
            p.client().send(new QueryProgress(p.request().requestId(), 0, TimeUnit.NANOSECONDS.toMillis(now - p.arrivedNs())));
        }
        for (final QueryLine.Expired e : line.expire(now)) {
            e.waiting().client().send(new QueryFailed(e.waiting().request().requestId(), 0, e.errorType(), e.reason()));
            log.accept("coordinator: " + e.reason());
        }
        admit(now);
        for (final Iterator<Peer> it = clients.values().iterator(); it.hasNext(); ) {
            final Peer client = it.next();
            if (client.waiting() == 0 && now - Math.max(client.lastUsedNs(), client.heardNs()) > CLIENT_IDLE_NS
                    && !inUse(client)) {
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
        return line.has(client);
    }

    /** The reply address of a message that names one, else null. */
    private static StreamAddress replyToOf(final ControlMessage m) {
        if (m instanceof Hello h) {
            return h.replyTo();
        } else if (m instanceof Register r) {
            return r.replyTo();
        } else if (m instanceof QueryRequest r) {
            return r.replyTo();
        } else if (m instanceof StatusRequest r) {
            return r.replyTo();
        } else if (m instanceof CancelRequest r) {
            return r.replyTo();
        } else if (m instanceof ClientHeartbeat h) {
            return h.replyTo();
        }
        return null;
    }

    private void handle(final ControlMessage message) {
        final long now = System.nanoTime();
        final StreamAddress replyTo = replyToOf(message);
        if (replyTo != null && !(message instanceof Register)) {
            // A client (or a CN making contact): any message of its is a sign of life.
            client(replyTo).heard(now);
        }
        if (message instanceof Hello || message instanceof QueryRequest) {
            // A client's first words: the query follows, so the process stops idling now.
            transport.activity().touch();
        }
        if (message instanceof Hello h) {
            final Peer peer = client(h.replyTo());
            peer.doorbell(h.replyTo().host(), h.doorbell());
            peer.send(new Challenge(incarnation, doorbell == null ? 0 : doorbell.port()));
        } else if (message instanceof ClientHeartbeat) {
            return;
        } else if (message instanceof CancelRequest c) {
            cancel(c, now);
        } else if (message instanceof Register r) {
            members.register(r, now);
        } else if (message instanceof CnHeartbeat h) {
            members.heartbeat(h, now);
        } else if (message instanceof Leave l) {
            members.leave(l.memberId(), l.incarnation());
        } else if (message instanceof Prepared p) {
            final CoordinatedQuery q = queryOf(p.queryId(), p.memberId(), now);
            if (q != null && q.phase == CoordinatedQuery.Phase.PREPARING && q.prepared(q.indexOf(p.memberId()))) {
                q.phase = CoordinatedQuery.Phase.RUNNING;
                if (q.cns.size() > 1) {
                    // The only CN of a query runs once compiled: nobody else's receivers need to be open.
                    for (final Member m : q.cns) {
                        m.peer.sendAwaited(new Start(q.queryId));
                        startsSent++;
                    }
                }
            }
        } else if (message instanceof Finished f) {
            final CoordinatedQuery q = queryOf(f.queryId(), f.memberId(), now);
            if (q != null) {
                q.cns.get(q.indexOf(f.memberId())).caches = f.caches();
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
        } else if (message instanceof FilterPartials f) {
            final CoordinatedQuery q = queryOf(f.queryId(), f.memberId(), now);
            if (q != null) {
                filterPartials(q, f);
            }
        } else if (message instanceof ResultBatch b) {
            final CoordinatedQuery q = queries.get(b.queryId());
            if (q != null) {
                // Relayed as it comes, whole: the client decodes while the rest arrive, and nothing waits here.
                q.client.send(b);
                resultBatchesRelayed++;
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
            client(s.replyTo()).send(new Status(s.requestId(), incarnation, members.epoch(), members.status(now),
                    badMessages, running(), line.size()));
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

    /** Gathers a CN's partial runtime filters; sends the filter to every CN of the query once all are in. */
    private void filterPartials(final CoordinatedQuery q, final FilterPartials f) {
        final byte[] ready;
        try {
            ready = q.filterPartials(q.indexOf(f.memberId()), f);
        } catch (final RuntimeException e) {
            fail(q, e.getClass().getSimpleName(), q.describe() + " failed: runtime filter " + f.filterId() + " of CN "
                    + q.cns.get(q.indexOf(f.memberId())).name + " could not be merged: " + e.getMessage());
            return;
        }
        if (ready != null) {
            for (final Member m : q.cns) {
                // A filter too large for one message is dropped for every CN alike, never sent to only some.
                final boolean fits = ready.length <= m.peer.maxMessageLength() - RuntimeFilterRouting.HEADROOM_BYTES;
                m.peer.sendAwaited(new FilterReady(q.queryId, f.filterId(), fits ? ready : new byte[0]));
            }
        }
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
        if (running() >= context.maxQueries()) {
            if (!line.hasRoom()) {
                client.send(new QueryFailed(r.requestId(), 0, "QueueFullException", "the coordinator at " + listening
                        + " runs " + running() + " queries and " + line.size() + " wait for a place ("
                        + ClusterContext.MAX_QUERIES_PROP_NAME + ", " + ClusterContext.MAX_QUEUED_PROP_NAME
                        + "): try again when fewer queries run"));
                return;
            }
            line.add(new QueryLine.Waiting(r, client, now));
            // Acknowledged: the client stops sending it again and waits.
            client.send(new QueryProgress(r.requestId(), 0, 0));
            return;
        }
        launch(r, client, now, now);
    }

    /** Starts queries that wait while places are free. */
    private void admit(final long now) {
        while (running() < context.maxQueries()) {
            final QueryLine.Waiting w = line.next();
            if (w == null) {
                return;
            }
            launch(w.request(), w.client(), w.arrivedNs(), now);
        }
    }

    /** A client's cancel: its query fails on every CN, or leaves the line. */
    private void cancel(final CancelRequest c, final long now) {
        final Peer client = client(c.replyTo());
        final String why = "cancelled by its client: " + c.reason();
        final QueryLine.Waiting waiting = line.remove(client, c.requestId());
        if (waiting != null) {
            client.send(new QueryFailed(c.requestId(), 0, "QueryCancelledException", "query "
                    + waiting.request().name() + " " + why));
            log.accept("coordinator: query " + waiting.request().name() + " waiting for a place was " + why);
            return;
        }
        for (final Iterator<Planning> it = planning.values().iterator(); it.hasNext(); ) {
            final Planning p = it.next();
            if (p.client() == client && p.request().requestId() == c.requestId()) {
                it.remove();
                client.send(new QueryFailed(c.requestId(), p.queryId(), "QueryCancelledException", "query "
                        + p.request().name() + " " + why));
                log.accept("coordinator: query " + p.request().name() + " being planned was " + why);
            }
        }
        for (final CoordinatedQuery q : new ArrayList<>(queries.values())) {
            if (q.client == client && q.requestId == c.requestId()) {
                fail(q, "QueryCancelledException", q.describe() + " was " + why);
            }
        }
    }

    /** Queries running or being planned: each takes a place. */
    private int running() {
        return queries.size() + planning.size();
    }

    /** Plans a query for the CNs alive now and sends it to them; {@code arrivedNs} starts its timeout. */
    private void launch(final QueryRequest r, final Peer client, final long arrivedNs, final long now) {
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
            // The plan's own checks (it decodes, its tables exist) are the planning thread's: it decodes it anyway.
            refusal = null;
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
        planning.put(queryId, new Planning(queryId, r, client, arrivedNs, List.copyOf(cns), cores));
        // Acknowledged: the client stops sending it again and waits while the plan is decided.
        client.send(new QueryProgress(r.requestId(), 0, 0));
        planner.submit(queryId, r.plan(), new Topology(wanted, cores));
    }

    /** A query whose plan the planning thread decides: what {@link #prepare} needs once it has. */
    private record Planning(long queryId, QueryRequest request, Peer client, long arrivedNs, List<Member> cns,
                            int cores) {
    }

    /** Sends the queries whose plans were decided to their CNs, or their clients the reason they were not. */
    private int decided(final long now) {
        int work = 0;
        for (CoordinatorPlanner.Outcome o = planner.poll(); o != null; o = planner.poll()) {
            work++;
            final Planning p = planning.remove(o.queryId());
            if (p == null) {
                continue; // cancelled while it was planned
            }
            if (o.decided() == null) {
                p.client().send(new QueryFailed(p.request().requestId(), p.queryId(), o.errorType(), o.error()));
                admit(now);
                continue;
            }
            final List<String> gone = new ArrayList<>();
            for (final Member m : p.cns()) {
                if (!members.contains(m)) {
                    gone.add(m.name);
                }
            }
            if (!gone.isEmpty()) {
                p.client().send(new QueryFailed(p.request().requestId(), p.queryId(), "IllegalStateException",
                        "query " + p.request().name() + " was planned for CN(s) " + gone + " that left the cluster"
                        + " meanwhile: run it again"));
                admit(now);
                continue;
            }
            prepare(p, o.decided(), o.columns(), now);
        }
        return work;
    }

    /**
     * Starts a query whose plan is decided: each of its CNs gets it in a Prepare.
     *
     * @param columns the result's names as SQL gives them, which its client gets in the end; null: the plan's own
     */
    private void prepare(final Planning p, final byte[] decided, final List<String> columns, final long now) {
        final QueryRequest r = p.request();
        final long queryId = p.queryId();
        final List<Member> cns = p.cns();
        final int cores = p.cores();
        final int wanted = cns.size();
        final Peer client = p.client();
        final long arrivedNs = p.arrivedNs();
        final CoordinatedQuery q = new CoordinatedQuery(queryId, r.requestId(), r.name(), client, cns, cores, now,
                r.timeoutMillis(), r.timeoutMillis() == 0 ? Long.MAX_VALUE
                : arrivedNs + TimeUnit.MILLISECONDS.toNanos(r.timeoutMillis()), columns);
        queries.put(queryId, q);
        listener.started(queryId, r.name());
        final List<StreamAddress> data = new ArrayList<>();
        final List<Long> incarnations = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final Member m : cns) {
            data.add(m.data);
            incarnations.add(m.incarnation);
            names.add(m.name);
        }
        client.send(new QueryAccepted(r.requestId(), queryId, wanted, cores, names));
        final List<CachedBlocks> caches = context.cacheAffinity() ? CacheReports.ofQuery(cns) : List.of();
        for (int i = 0; i < cns.size(); i++) {
            cns.get(i).peer.sendAwaited(new Prepare(queryId, r.name(), i, wanted, cores, data, incarnations, decided,
                    r.explain(), caches));
        }
    }

    private void completeIfDone(final CoordinatedQuery q, final long now) {
        if (!q.complete()) {
            return;
        }
        queries.remove(q.queryId);
        q.client.send(q.resultEnd());
        final QueryDone done = q.done(now);
        q.client.sendAwaited(done);
        listener.finished(q.queryId, now - q.startNs, done.stats());
        admit(now);
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
                m.peer.sendAwaited(new Cancel(q.queryId, message));
            }
        }
        q.client.sendAwaited(new QueryFailed(q.requestId, q.queryId, errorType, message));
        listener.failed(q.queryId, errorType, System.nanoTime() - q.startNs);
        log.accept("coordinator: " + message);
        admit(System.nanoTime());
    }

    private record RequestKey(StreamAddress client, long requestId) {
    }

    /**
     * The peer of a client (or of a CN making contact) at {@code replyTo}, addressed to the process whose
     * message is being handled.
     */
    private Peer client(final StreamAddress replyTo) {
        final Peer peer = clients.computeIfAbsent(replyTo, a -> peer(a, 0));
        final long sender = controlIn.currentSender();
        if (sender != 0) {
            peer.publisher().receiver(sender);
        }
        return peer;
    }

    /** A new peer at {@code address} whose messages name {@code receiver} (0: unknown). */
    private Peer peer(final StreamAddress address, final long receiver) {
        return new Peer(new ControlPublisher(aeron.addPublication(
                Endpoint.publicationChannel(address.channel(), transport), address.stream()), authentication, receiver),
                transport.activity(), ringer);
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
        CloseHelper.closeAll(strangers);
        CloseHelper.closeAll(clients.values());
        clients.clear();
        CloseHelper.closeAll(controlIn, resultsIn, doorbell, ringer, planner);
    }

    /**
     * Decides plans over {@code tables}, the tables its CNs read (a folder of Parquet files, say), instead of
     * its store's; call before {@link #start}. The caller keeps it open while the coordinator runs.
     */
    public Coordinator catalog(final Catalog tables) {
        planner.catalog(tables);
        return this;
    }

    /**
     * Plans the SQL text clients send ({@link Session#executeSql}) with {@code planning}; without it this
     * coordinator accepts plans only.
     */
    public Coordinator sqlPlanning(final SqlPlanning planning) {
        planner.sqlPlanning(planning);
        return this;
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
