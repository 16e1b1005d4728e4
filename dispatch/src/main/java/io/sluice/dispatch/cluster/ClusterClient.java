package io.sluice.dispatch.cluster;

import io.aeron.Aeron;
import io.sluice.dispatch.control.ControlLinkException;
import io.sluice.dispatch.control.ControlMessage;
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
import io.sluice.dispatch.control.ControlPublisher;
import io.sluice.dispatch.control.ControlSubscriber;
import io.sluice.dispatch.control.ControlVersionException;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.shuffle.exec.QueryResult;
import io.sluice.shuffle.plan.Plan;
import io.sluice.shuffle.plan.PlanCodec;
import io.sluice.shuffle.plan.StrategyConfig;
import io.sluice.storage.wire.WireFormatException;
import io.sluice.transport.Endpoint;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * A client of a coordinator: sends it a plan and waits for the answer (the result rows, each join's
 * and group-by's strategy, the distributed plan and what moved where), or asks who is in the cluster.
 * It waits while the coordinator is heard from (a running query's progress comes a few times a
 * second) and gives up after the client timeout of silence, naming the coordinator. One request at a
 * time; the calling thread does the polling.
 */
public final class ClusterClient implements AutoCloseable {
    private final StreamAddress replyTo;
    private final String coordinatorName;
    private final ClusterContext context;
    private final ControlSubscriber replies;
    private final ControlPublisher toCoordinator;
    private final IdleStrategy idle = new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MILLISECONDS.toNanos(1));
    private long nextRequestId = ThreadLocalRandom.current().nextLong(1, 1L << 40);

    ClusterClient(final Aeron aeron, final Listener listener, final StreamAddress coordinator,
            final String coordinatorName, final ClusterContext context, final TransportContext transport) {
        this.replyTo = listener.address(0);
        this.coordinatorName = coordinatorName;
        this.context = context.validate();
        this.replies = new ControlSubscriber(listener.subscription(0));
        this.toCoordinator = new ControlPublisher(aeron.addPublication(
                Endpoint.publicationChannel(coordinator.channel(), transport), coordinator.stream()));
    }

    /** A client of the coordinator at {@code coordinator}, receiving on a free UDP port of the address toward it. */
    public static ClusterClient udp(final Aeron aeron, final Endpoint coordinator, final ClusterContext context,
            final TransportContext transport) {
        final Endpoint local = new Endpoint(Endpoint.localAddressToward(coordinator), 0);
        return new ClusterClient(aeron, Listener.udp(aeron, local, Streams.CONTROL),
                new StreamAddress(coordinator.channel(), Streams.CONTROL), coordinator.toString(), context, transport);
    }

    /** A client in slot {@code slot} of a process sharing the coordinator's media driver. */
    static ClusterClient ipc(final Aeron aeron, final int slot, final StreamAddress coordinator,
            final ClusterContext context, final TransportContext transport) {
        return new ClusterClient(aeron, Listener.ipc(aeron, Streams.IPC_CLIENT_BASE + slot), coordinator,
                "the embedded coordinator", context, transport);
    }

    /**
     * Runs a plan on {@code cnCount} CNs (0: every CN alive) with {@code cores} cores each (0: as many as
     * the CN with the fewest offers).
     *
     * @throws QueryFailedException when the query failed or the coordinator refused it
     * @throws ControlLinkException when the coordinator cannot be reached or stops answering
     */
    public synchronized Session.Execution execute(final String name, final Plan plan, final StrategyConfig config,
            final int cnCount, final int cores) {
        final long requestId = nextRequestId++;
        send(new QueryRequest(replyTo, requestId, name, cnCount, cores, PlanCodec.encode(plan, config)));
        final Reply reply = new Reply(requestId);
        await(reply);
        if (reply.failed != null) {
            throw new QueryFailedException(reply.failed.errorType(), reply.failed.message());
        }
        final QueryDone done = reply.done;
        final QueryResult result = ResultRows.decode(done.resultType(), reply.batches);
        return new Session.Execution(result, done.decisions(), done.explain(), done.stats(), done.usage());
    }

    /** The cluster's members as the coordinator sees them now. */
    public synchronized List<MemberStatus> status() {
        final long requestId = nextRequestId++;
        send(new StatusRequest(replyTo, requestId));
        final Reply reply = new Reply(requestId);
        await(reply);
        return reply.status.members();
    }

    private void send(final ControlMessage message) {
        try {
            toCoordinator.send(message, context.clientTimeoutNs());
        } catch (final ControlLinkException e) {
            throw new ControlLinkException("cannot reach the coordinator at " + coordinatorName + ": is it running"
                    + " (sluice coordinator --listen " + coordinatorName + " --store DIR)? " + e.getMessage());
        }
    }

    /** Polls replies until the request is answered, or the coordinator has been silent for the client timeout. */
    private void await(final Reply reply) {
        long lastHeardNs = System.nanoTime();
        while (!reply.answered()) {
            final int work = replies.poll(reply, 64);
            final long now = System.nanoTime();
            if (work > 0) {
                lastHeardNs = now;
                idle.reset();
            } else if (now - lastHeardNs > context.clientTimeoutNs()) {
                throw new ControlLinkException("the coordinator at " + coordinatorName + " did not answer for "
                        + TimeUnit.NANOSECONDS.toMillis(context.clientTimeoutNs()) + " ms"
                        + (reply.queryId == 0 ? "" : " while it ran query " + reply.queryId)
                        + ": it stopped or is unreachable (" + ClusterContext.CLIENT_TIMEOUT_PROP_NAME + ")");
            } else {
                idle.idle();
            }
        }
    }

    /** What came back for one request. */
    private static final class Reply implements ControlSubscriber.Handler {
        final long requestId;
        long queryId;
        final List<ResultBatch> batches = new ArrayList<>();
        QueryDone done;
        QueryFailed failed;
        Status status;
        String refusal;

        Reply(final long requestId) {
            this.requestId = requestId;
        }

        boolean answered() {
            if (refusal != null) {
                throw new QueryFailedException("ControlVersionException", refusal);
            }
            return done != null || failed != null || status != null;
        }

        @Override
        public void onMessage(final ControlMessage message) {
            if (message instanceof QueryAccepted a && a.requestId() == requestId) {
                queryId = a.queryId();
            } else if (message instanceof QueryProgress p && p.requestId() == requestId) {
                queryId = p.queryId();
            } else if (message instanceof ResultBatch b && queryId != 0 && b.queryId() == queryId) {
                batches.add(b);
            } else if (message instanceof ResultEnd e && e.queryId() == queryId && e.batches() != batches.size()) {
                failed = new QueryFailed(requestId, queryId, "IllegalStateException", "query " + queryId
                        + " sent " + e.batches() + " result batches but " + batches.size() + " arrived");
            } else if (message instanceof QueryDone d && d.requestId() == requestId) {
                done = d;
            } else if (message instanceof QueryFailed f && f.requestId() == requestId) {
                failed = f;
            } else if (message instanceof Status s && s.requestId() == requestId) {
                status = s;
            } else if (message instanceof Reject r) {
                refusal = r.reason();
            }
        }

        @Override
        public void onBadMessage(final WireFormatException fault) {
            refusal = "the coordinator sent a reply that does not decode: " + fault.getMessage();
        }

        @Override
        public void onVersionMismatch(final ControlVersionException mismatch) {
            refusal = mismatch.getMessage();
        }
    }

    /** Where this client receives replies. */
    public StreamAddress replyTo() {
        return replyTo;
    }

    @Override
    public void close() {
        CloseHelper.closeAll(toCoordinator, replies);
    }
}
