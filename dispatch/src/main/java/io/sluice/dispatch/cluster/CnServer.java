package io.sluice.dispatch.cluster;

import io.aeron.Aeron;
import io.sluice.dispatch.DataPlane;
import io.sluice.dispatch.DispatchContext;
import io.sluice.dispatch.control.ControlAuthentication;
import io.sluice.dispatch.control.ControlMessage.Accept;
import io.sluice.dispatch.control.ControlMessage.Cancel;
import io.sluice.dispatch.control.ControlMessage.Challenge;
import io.sluice.dispatch.control.ControlMessage.CnHeartbeat;
import io.sluice.dispatch.control.ControlMessage.CoordinatorHeartbeat;
import io.sluice.dispatch.control.ControlMessage.Evicted;
import io.sluice.dispatch.control.ControlMessage.FilterReady;
import io.sluice.dispatch.control.ControlMessage.Hello;
import io.sluice.dispatch.control.ControlMessage.Leave;
import io.sluice.dispatch.control.ControlMessage.Prepare;
import io.sluice.dispatch.control.ControlMessage.Register;
import io.sluice.dispatch.control.ControlMessage.Reject;
import io.sluice.dispatch.control.ControlMessage.Shutdown;
import io.sluice.dispatch.control.ControlMessage.Start;
import io.sluice.dispatch.control.ControlMessage;
import io.sluice.dispatch.control.ControlPublisher;
import io.sluice.dispatch.control.ControlSubscriber;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.engine.exec.PipelineExecutor;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.transport.ClusterSecret;
import io.sluice.transport.Doorbell;
import io.sluice.transport.DoorbellRinger;
import io.sluice.transport.DriverCounters;
import io.sluice.transport.Endpoint;
import io.sluice.transport.TransportContext;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;

/**
 * A compute node: registers with its coordinator, sends it heartbeats, and runs the queries it is
 * given, each on a thread of its own ({@link CnQuery}) with the node's worker threads, over the
 * store every CN shares. Its data plane ({@link DataPlane}) carries batches to and from the other CNs
 * directly; the coordinator sees only control messages.
 *
 * <p>One control loop thread (an Agrona agent) polls the control stream, registers until accepted (every
 * register interval), heartbeats while a member, forwards START and CANCEL to the queries, and sends
 * what the queries hand it; it never waits. A CN that hears nothing from its coordinator for the dead
 * timeout (the coordinator died, restarted, or took this CN for dead) drops its queries and registers
 * again, so a restarted coordinator is rejoined and a CN that was stopped (SIGSTOP) rejoins once it
 * runs again. A {@link Reject} (a name already taken, another protocol version) ends it:
 * {@link #rejected()} completes with the reason. While nothing answers, it says so after the connect
 * timeout, and again after twice as long, and so on.
 */
public final class CnServer implements Agent, AutoCloseable {
    private static final int FRAGMENT_LIMIT = 32;

    private final Aeron aeron;
    private final String name;
    private final int cores;
    private final StreamAddress control;
    private final StreamAddress coordinator;
    private final Catalog tables;
    private final ClusterContext context;
    private final TransportContext transport;
    private final Consumer<String> log;
    private final long incarnation = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    private final ControlAuthentication authentication;
    private final ControlSubscriber controlIn;
    private final DataPlane plane;
    private final ControlPublisher toCoordinator;
    private final AgentRunner runner;
    /** Wakes this process when the coordinator rings it before a plan; null on IPC. */
    private final Doorbell doorbell;
    private final DoorbellRinger ringer = new DoorbellRinger();
    /** The coordinator's doorbell port (0: none), from its challenge; the query threads ring it with their reports. */
    private volatile int coordinatorDoorbell;
    private final ArrayDeque<ControlMessage> outbox = new ArrayDeque<>();
    private final ExecutorService queryThreads = Executors.newCachedThreadPool(r -> {
        final Thread t = new Thread(r, "sluice-query");
        t.setDaemon(true);
        return t;
    });
    private final Map<Long, CnQuery> queries = new ConcurrentHashMap<>();
    private final Map<Integer, PipelineExecutor> executors = new HashMap<>();
    private final CompletableFuture<String> rejected = new CompletableFuture<>();
    private final ControlSubscriber.Handler handler = new ControlSubscriber.Handler() {
        @Override
        public void onMessage(final ControlMessage message) {
            handle(message);
        }

        @Override
        public void onUnauthenticated(final ControlMessage decoded, final String source) {
            if (memberId >= 0 || rejected.isDone()) {
                return;
            }
            if (decoded instanceof Challenge) {
                refused("authentication failed: the coordinator at " + coordinatorName() + " answered with a challenge"
                        + " not signed with this CN's cluster secret (it has another secret, or none): give every"
                        + " process of the cluster the same --secret-file (or " + ClusterSecret.FILE_ENV + ")");
            } else if (decoded instanceof Reject r) {
                refused(r.reason().startsWith("authentication failed") ? r.reason()
                        : "authentication failed: the coordinator at " + coordinatorName() + " refused it in a message"
                        + " not signed with this CN's cluster secret: " + r.reason());
            }
        }
    };

    /** The head of the outbox the publication refused last; guarded by the outbox's lock. */
    private ControlMessage pending;

    // The control loop's state.
    private long memberId = -1;
    private long coordinatorIncarnation;
    /** The coordinator incarnation whose challenge this CN answers now (0: none yet), and since when. */
    private long challengedBy;
    private long challengedAtNs;
    private ControlPublisher toResults;
    private StreamAddress resultsAddress;
    private long lastHeardNs;
    private long lastRegisterNs;
    private long lastHeartbeatNs;
    /** Since when registering has gone unanswered (0: not waiting), and when to say so next. */
    private long unansweredSinceNs;
    /** Silence after which the CN says it is still waiting: the connect timeout, then twice as long, .... */
    private long nextWaitingNoteNs;
    private volatile boolean member;
    private boolean started;
    /** Set by {@link #close}: an in-process coordinator then counts this CN gone (see {@link #runs}). */
    private volatile boolean closed;
    /** Whether the coordinator runs in this process: its silence is then starvation, never its death. */
    private volatile boolean coordinatorInProcess;

    /**
     * A CN that receives control messages on the listener's first stream and data on its second (it owns
     * them from now on) and registers with the coordinator at {@code coordinator}; {@link #start} runs it.
     *
     * @param log where joining, leaving and losing the coordinator are reported, a line each
     */
    CnServer(final Aeron aeron, final Listener listener, final Doorbell doorbell, final String name, final int cores,
            final StreamAddress coordinator, final Catalog tables, final ClusterContext context,
            final TransportContext transport, final DispatchContext dispatch, final Consumer<String> log) {
        if (cores < 1) {
            throw new IllegalArgumentException("a CN needs at least one core, got " + cores);
        }
        this.aeron = aeron;
        this.doorbell = doorbell;
        this.name = name;
        this.cores = cores;
        this.control = listener.address(0);
        this.coordinator = coordinator;
        this.tables = tables;
        this.context = context.validate();
        this.transport = transport;
        this.log = log;
        this.authentication = this.context.authentication(incarnation);
        this.nextWaitingNoteNs = this.context.connectTimeoutNs();
        final Consumer<String> prefixed = line -> log.accept("cn " + name + ": " + line);
        this.controlIn = new ControlSubscriber(listener.subscription(0), authentication, prefixed);
        final StreamAddress data = listener.address(1);
        this.plane = new DataPlane(aeron, listener.subscription(1), data.channel(), data.stream(), transport, dispatch,
                this.context.secret(), incarnation, prefixed);
        this.toCoordinator = new ControlPublisher(aeron.addPublication(
                Endpoint.publicationChannel(coordinator.channel(), transport), coordinator.stream()), authentication, 0);
        this.runner = new AgentRunner(new ControlIdle(() -> !queries.isEmpty(), transport), t -> log.accept("cn " + name + ": " + t), null, this);
    }

    /**
     * A CN listening on UDP {@code bind} (port 0: any free port) that joins the coordinator at {@code coordinator}.
     *
     * @throws IllegalArgumentException when either address is not a loopback address and the context has no
     *                                  cluster secret
     */
    public static CnServer udp(final Aeron aeron, final Endpoint bind, final Endpoint coordinator, final String name,
            final int cores, final Catalog tables, final ClusterContext context, final TransportContext transport,
            final DispatchContext dispatch, final Consumer<String> log) {
        LoopbackRule.check(context, "bind to " + bind + " and join the coordinator at " + coordinator, bind, coordinator);
        final Listener listener = Listener.udp(aeron, bind, Streams.CONTROL, Streams.DATA);
        Doorbell doorbell = null;
        try {
            doorbell = Doorbell.open(bind.host(), transport.activity(), name);
            return new CnServer(aeron, listener, doorbell, name, cores,
                    new StreamAddress(coordinator.channel(), Streams.CONTROL), tables, context, transport, dispatch, log);
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(listener, doorbell);
            throw e;
        }
    }

    /** A CN on {@code aeron:ipc} in slot {@code slot} of an embedded cluster (its own streams). */
    static CnServer ipc(final Aeron aeron, final int slot, final StreamAddress coordinator, final String name,
            final int cores, final Catalog tables, final ClusterContext context, final TransportContext transport,
            final DispatchContext dispatch, final Consumer<String> log) {
        return new CnServer(aeron, Listener.ipc(aeron, Streams.IPC_CN_BASE + 2 * slot, Streams.IPC_CN_BASE + 2 * slot + 1),
                null, name, cores, coordinator, tables, context, transport, dispatch, log);
    }

    /**
     * Says its coordinator runs in this process (an embedded cluster): this CN then never takes the coordinator's
     * silence for its loss, since a coordinator loop starved by this JVM's workers is not gone. Before {@link #start}.
     */
    CnServer coordinatorInProcess() {
        coordinatorInProcess = true;
        return this;
    }

    /** Its incarnation: unique to this server, in every message it sends. */
    long incarnation() {
        return incarnation;
    }

    /** Whether it has not been closed; any thread. */
    boolean runs() {
        return !closed;
    }

    /** Starts the control loop on its own thread: the CN registers at once. */
    public CnServer start() {
        AgentRunner.startOnThread(runner);
        started = true;
        return this;
    }

    public String name() {
        return name;
    }

    /** Where it receives control messages. */
    public StreamAddress control() {
        return control;
    }

    /** Whether the coordinator has taken it in and is heard from; any thread. */
    public boolean isMember() {
        return member;
    }

    /** Completes with the coordinator's reason when it refuses this CN; the CN then stops registering. */
    public CompletableFuture<String> rejected() {
        return rejected;
    }

    /** Queries running now; any thread. */
    public int activeQueries() {
        return queries.size();
    }

    @Override
    public String roleName() {
        return "sluice-cn-" + name;
    }

    @Override
    public int doWork() {
        int work = controlIn.poll(handler, FRAGMENT_LIMIT);
        final long now = System.nanoTime();
        if (rejected.isDone()) {
            return work;
        }
        if (memberId < 0) {
            if (unansweredSinceNs == 0) {
                unansweredSinceNs = now;
            } else if (now - unansweredSinceNs > nextWaitingNoteNs) {
                final long waited = TimeUnit.NANOSECONDS.toMillis(now - unansweredSinceNs);
                log.accept("cn " + name + ": " + (toCoordinator.isConnected()
                        ? "the coordinator at " + coordinatorName() + " has not taken this CN in after " + waited
                        + " ms; still trying (its log says why, if it is busy or of another version)"
                        : "nothing receives at " + coordinatorName() + ", where the coordinator should be, after "
                        + waited + " ms; still trying. Start the coordinator there (sluice coordinator --listen "
                        + coordinatorName() + " --store DIR), or give this CN the --coordinator address the"
                        + " coordinator printed"));
                nextWaitingNoteNs = Math.min(2 * nextWaitingNoteNs, TimeUnit.MINUTES.toNanos(5));
            }
            if (challengedBy != 0 && now - challengedAtNs > 4 * context.registerIntervalNs()) {
                // Challenged, but the registration went unanswered: ask again from the start.
                challengedBy = 0;
                toCoordinator.receiver(0);
            }
            if (now - lastRegisterNs >= context.registerIntervalNs()) {
                lastRegisterNs = now;
                if (challengedBy == 0) {
                    toCoordinator.offer(new Hello(control, incarnation, doorbell == null ? 0 : doorbell.port()));
                } else {
                    register();
                }
                work++;
            }
        } else if (!coordinatorInProcess && now - lastHeardNs > context.deadTimeoutNs()) {
            lost("lost the coordinator at " + coordinatorName() + ": nothing heard for "
                    + TimeUnit.NANOSECONDS.toMillis(now - lastHeardNs) + " ms; registering again");
            work++;
        } else if (now - lastHeartbeatNs >= context.heartbeatIntervalNs()) {
            // A heartbeat the publication refuses (back pressure) is tried again next cycle, not an interval later.
            if (toCoordinator.offer(new CnHeartbeat(memberId, incarnation, queries.size(), ProcessMemory.peakRssBytes(),
                    controlIn.rejectedMessages() + plane.rejectedFrames(), DriverCounters.retransmitsSent(aeron)))) {
                lastHeartbeatNs = now;
                work++;
            }
        }
        return work + drainOutbox();
    }

    private StreamAddress plane() {
        return new StreamAddress(plane.channel(), plane.stream());
    }

    private void register() {
        toCoordinator.offer(new Register(control, name, cores, plane(), ProcessHandle.current().pid(), incarnation,
                CnServer.class.getPackage().getImplementationVersion() == null ? "dev"
                : CnServer.class.getPackage().getImplementationVersion(), doorbell == null ? 0 : doorbell.port()));
    }

    /**
     * The coordinator refused this CN, or could not be authenticated: it stops registering. The reason goes to
     * {@link #rejected()} alone, whose owner reports it once.
     */
    private void refused(final String why) {
        rejected.complete(why);
    }

    /** Sends what the queries handed over, in order, while the publication takes it. */
    private int drainOutbox() {
        int sent = 0;
        synchronized (outbox) {
            while (true) {
                if (pending == null) {
                    pending = outbox.poll();
                    if (pending == null) {
                        return sent;
                    }
                }
                if (!toCoordinator.offer(pending)) {
                    return sent;
                }
                pending = null;
                sent++;
            }
        }
    }

    private void handle(final ControlMessage message) {
        final long now = System.nanoTime();
        if (message instanceof Challenge c) {
            if (memberId < 0) {
                coordinatorDoorbell = c.doorbell();
                challengedBy = c.coordinatorIncarnation();
                challengedAtNs = now;
                toCoordinator.receiver(challengedBy);
                register();
                lastRegisterNs = now;
            }
        } else if (message instanceof Accept a) {
            unansweredSinceNs = 0;
            nextWaitingNoteNs = context.connectTimeoutNs();
            final boolean again = memberId == a.memberId();
            memberId = a.memberId();
            coordinatorIncarnation = a.coordinatorIncarnation();
            lastHeardNs = now;
            member = true;
            if (!a.results().equals(resultsAddress)) {
                CloseHelper.quietClose(toResults);
                resultsAddress = a.results();
                toResults = new ControlPublisher(aeron.addPublication(
                        Endpoint.publicationChannel(resultsAddress.channel(), transport), resultsAddress.stream()),
                        authentication, coordinatorIncarnation);
            } else {
                toResults.receiver(coordinatorIncarnation);
            }
            if (!again) {
                log.accept("cn " + name + " joined: CN " + a.position() + " of " + a.memberCount() + " in the cluster of "
                        + coordinatorName() + " (epoch " + a.epoch() + ", incarnation " + Long.toHexString(incarnation)
                        + ")");
            }
        } else if (message instanceof Reject r) {
            if (memberId < 0) {
                refused(r.reason().startsWith("authentication failed") ? r.reason()
                        : "the coordinator at " + coordinatorName() + " refused CN " + name + ": " + r.reason());
            }
        } else if (message instanceof CoordinatorHeartbeat h) {
            if (memberId >= 0 && h.coordinatorIncarnation() == coordinatorIncarnation) {
                lastHeardNs = now;
            }
        } else if (message instanceof Evicted e) {
            if (memberId >= 0 && e.coordinatorIncarnation() == coordinatorIncarnation) {
                lost("the coordinator at " + coordinatorName() + " took this CN for dead (" + e.reason()
                        + "); registering again");
            }
        } else if (message instanceof Shutdown s) {
            if (memberId >= 0 && s.coordinatorIncarnation() == coordinatorIncarnation) {
                lost(s.reason() + "; waiting for it to come back");
            }
        } else if (message instanceof Prepare p) {
            if (memberId < 0) {
                return;
            }
            lastHeardNs = now;
            final CnQuery query = new CnQuery(this, p, memberId);
            if (queries.putIfAbsent(p.queryId(), query) == null) {
                queryThreads.execute(query);
            }
        } else if (message instanceof Start s) {
            final CnQuery q = queries.get(s.queryId());
            if (q != null) {
                q.start();
            }
        } else if (message instanceof FilterReady f) {
            final CnQuery q = queries.get(f.queryId());
            if (q != null) {
                q.filterReady(f);
            }
        } else if (message instanceof Cancel c) {
            final CnQuery q = queries.get(c.queryId());
            if (q != null) {
                q.cancel(c.reason());
            }
        }
    }

    private String coordinatorName() {
        return coordinator.channel().replace("aeron:udp?endpoint=", "");
    }

    /** No longer a member: every query is dropped, and the CN registers again. */
    private void lost(final String why) {
        log.accept("cn " + name + ": " + why);
        memberId = -1;
        member = false;
        lastRegisterNs = 0;
        challengedBy = 0;
        toCoordinator.receiver(0);
        for (final CnQuery q : queries.values()) {
            q.cancel("CN " + name + " " + why);
        }
    }

    /**
     * Sends a message to the coordinator from a query's thread: at once when nothing waits before it
     * and the publication takes it, else after what waits, by the control loop; never blocks. The
     * coordinator waits for every such message (prepared, finished, failed, runtime filter partials), so
     * this process's driver is woken to send it now and the coordinator's doorbell is rung.
     */
    void send(final ControlMessage message) {
        synchronized (outbox) {
            if (pending != null || !outbox.isEmpty() || !toCoordinator.offer(message)) {
                outbox.offer(message);
            }
        }
        transport.activity().wake();
        ringer.ring(coordinator.host(), coordinatorDoorbell);
    }

    /** The largest control message the coordinator's publication takes. */
    int maxMessageLength() {
        return toCoordinator.maxMessageLength();
    }

    /** The publication for result rows; set while a member. */
    ControlPublisher results() {
        return toResults;
    }

    DataPlane dataPlane() {
        return plane;
    }

    ClusterContext context() {
        return context;
    }

    String nameOf() {
        return name;
    }

    /** A table of the shared store, opened once (its block files mapped and checked once). */
    BlockTable table(final String table) {
        return tables.table(table);
    }

    /** Worker threads for queries of {@code coresPerCn} cores. */
    synchronized PipelineExecutor executor(final int coresPerCn) {
        return executors.computeIfAbsent(coresPerCn, PipelineExecutor::new);
    }

    /** A query ended, however it ended. */
    void finished(final CnQuery query) {
        queries.remove(query.queryId(), query);
    }

    /**
     * Leaves the membership (telling the coordinator), cancels the queries, waits briefly for them to
     * stop, and releases the data plane and the Aeron resources; the client and the tables stay their
     * owners'.
     */
    @Override
    public void close() {
        closed = true;
        if (started) {
            CloseHelper.close(runner);
        } else {
            onClose();
        }
    }

    @Override
    public void onClose() {
        if (memberId >= 0) {
            toCoordinator.offer(new Leave(memberId, incarnation));
        }
        final List<CnQuery> running = new ArrayList<>(queries.values());
        for (final CnQuery q : running) {
            q.cancel("CN " + name + " stopped");
        }
        for (final CnQuery q : running) {
            q.awaitEnd(TimeUnit.SECONDS.toNanos(5));
        }
        queryThreads.shutdownNow();
        synchronized (this) {
            for (final PipelineExecutor e : executors.values()) {
                e.close();
            }
            executors.clear();
        }
        CloseHelper.quietCloseAll(plane, controlIn, toCoordinator, toResults, doorbell, ringer);
    }
}
