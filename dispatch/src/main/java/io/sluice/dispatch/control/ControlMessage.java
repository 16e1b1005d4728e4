package io.sluice.dispatch.control;

import io.sluice.engine.expr.RowType;
import io.sluice.engine.plan.Decision;
import java.util.List;

/**
 * The messages of the cluster's control plane, between the coordinator, its CNs and its clients
 * (never the data itself, which goes CN to CN on the data plane). Every message travels in the
 * {@link ControlCodec} form with the protocol version in its header.
 *
 * <p>First contact: a CN or a client sends {@link Hello}; the coordinator answers {@link Challenge}
 * with its incarnation, which every later message to it names as its receiver (so that, tagged under
 * the cluster secret, it is the response to that challenge and cannot be replayed to another
 * coordinator). Membership: a CN sends {@link Register}, the coordinator answers {@link Accept} or
 * {@link Reject}; both send heartbeats ({@link CnHeartbeat}, {@link CoordinatorHeartbeat}); a CN that
 * stops sends {@link Leave}, a coordinator that stops sends {@link Shutdown}, one that takes a CN for dead tells it {@link Evicted}. A query: the
 * coordinator sends {@link Prepare} to each CN of the query, each answers {@link Prepared} once it
 * compiled its fragments and opened its receivers (or {@link Failed}); then {@link Start} (a query of
 * one CN runs without it); each CN answers {@link Finished} with its stats, or {@link Failed}; CN 0 sends
 * the result rows as {@link ResultBatch}es and a {@link ResultEnd}; {@link Cancel} stops a query on a CN.
 * A client sends {@link QueryRequest} and gets {@link QueryAccepted}, {@link QueryProgress} while it
 * runs, the rows ({@link ResultBatch}es, relayed as they arrive, then {@link ResultEnd}) and
 * {@link QueryDone}, or {@link QueryFailed}; while it waits it
 * sends {@link ClientHeartbeat}s, and {@link CancelRequest} stops its query; {@link StatusRequest} gets
 * {@link Status}.
 */
public sealed interface ControlMessage {
    /**
     * A CN or client makes contact and asks for the coordinator's challenge.
     *
     * @param replyTo     where the coordinator answers
     * @param incarnation random per process start (or client): the answer names it as its receiver
     * @param doorbell    the UDP port of the sender's doorbell on its reply host (0: none), which the
     *                    coordinator rings when it sends a client the end of its query
     */
    record Hello(StreamAddress replyTo, long incarnation, int doorbell) implements ControlMessage {
    }

    /**
     * The coordinator's answer to {@link Hello}: its incarnation, random per start, which every later
     * message to it names as its receiver, and the UDP port of its doorbell on the host it was reached at
     * (0: none), which a client rings with its query and a CN with its reports ({@code io.sluice.transport.Doorbell}).
     */
    record Challenge(long coordinatorIncarnation, int doorbell) implements ControlMessage {
    }

    /**
     * A CN asks to join.
     *
     * @param replyTo     where the coordinator sends this CN's control messages
     * @param name        the CN's name, unique among the members
     * @param cores       worker threads it offers per query
     * @param data        where it receives data-plane frames
     * @param pid         its process id, for status
     * @param incarnation random per CN process start: tells a restarted CN from a repeated register
     * @param build       its Sluice version, for messages
     * @param doorbell    the UDP port of its doorbell on the host of {@code replyTo} (0: none), which the
     *                    coordinator rings with each message this CN waits for (a plan, a start, a filter)
     */
    record Register(StreamAddress replyTo, String name, int cores, StreamAddress data, long pid, long incarnation,
                    String build, int doorbell) implements ControlMessage {
    }

    /**
     * The coordinator took a CN in.
     *
     * @param position    the CN's place among the members, from 0
     * @param memberCount members now, this one included
     * @param results     where the CN sends result rows (apart from control messages, so that a large result
     *                    never holds up a heartbeat)
     */
    record Accept(long memberId, long epoch, int position, int memberCount, long coordinatorIncarnation,
                  StreamAddress results) implements ControlMessage {
    }

    /** The coordinator refused a CN or a client, saying why and what to do. */
    record Reject(String reason) implements ControlMessage {
    }

    /**
     * A CN is alive: how many queries it runs, its resident memory, and what it refused and resent.
     *
     * @param rejectedMessages frames and control messages it dropped unread (not sealed or signed for it
     *                         by a member, altered, replays, garbage)
     * @param retransmits      packets its media driver sent again because a receiver missed them
     */
    record CnHeartbeat(long memberId, long incarnation, int activeQueries, long rssBytes, long rejectedMessages,
                       long retransmits) implements ControlMessage {
    }

    /** The coordinator is alive, with the membership's epoch and size. */
    record CoordinatorHeartbeat(long coordinatorIncarnation, long epoch, int memberCount) implements ControlMessage {
    }

    /** A CN stops and leaves the membership. */
    record Leave(long memberId, long incarnation) implements ControlMessage {
    }

    /** The coordinator stops: its CNs drop their queries and wait for it to come back. */
    record Shutdown(long coordinatorIncarnation, String reason) implements ControlMessage {
    }

    /**
     * The coordinator took this CN for dead (it was silent past its dead timeout) and removed it: a CN that still
     * runs drops its queries and registers again at once, instead of after its own dead timeout.
     */
    record Evicted(long coordinatorIncarnation, String reason) implements ControlMessage {
    }

    /**
     * A query for one CN to compile. A CN runs it once every CN has prepared ({@link Start}); the only CN of a
     * query ({@code cnCount} 1) runs it as soon as it has compiled, since nobody else's receivers need to be open.
     *
     * @param index        the CN's number in this query (0 gathers the result)
     * @param data         where every CN of the query receives data, by index
     * @param incarnations every CN's incarnation, as it registered, by index: the keys of the frames sealed
     *                     for it derive from it, so a frame sealed for a CN opens at no later start of it
     * @param plan         the plan and its strategy configuration, {@link io.sluice.engine.plan.PlanCodec} form
     * @param explain      whether the client asked for the plan's EXPLAIN: only then does CN 0 render it into its
     *                     {@link Finished} (rendering costs a query that nobody explains part of its fixed cost)
     * @param caches       what each CN of the query last reported its block cache holds, by its index in the query:
     *                     scans no colocation pins read each block where it is cached (the same for every CN)
     */
    record Prepare(long queryId, String name, int index, int cnCount, int cores, List<StreamAddress> data,
                   List<Long> incarnations, byte[] plan, boolean explain, List<CachedBlocks> caches)
            implements ControlMessage {
        public Prepare {
            data = List.copyOf(data);
            incarnations = List.copyOf(incarnations);
            caches = List.copyOf(caches);
            for (final CachedBlocks c : caches) {
                if (c.index() >= cnCount) {
                    throw new IllegalArgumentException("cached blocks of '" + c.table() + "' on CN " + c.index()
                            + " of a query of " + cnCount + " CNs");
                }
            }
            if (incarnations.size() != data.size()) {
                throw new IllegalArgumentException(data.size() + " data addresses but " + incarnations.size()
                        + " incarnations");
            }
        }
    }

    /** A CN compiled its fragments and opened its receivers: it is ready to start. */
    record Prepared(long queryId, long memberId, int index) implements ControlMessage {
    }

    /** Every CN of a query of several CNs is ready: run. */
    record Start(long queryId) implements ControlMessage {
    }

    /** Stop the query on this CN (idempotent). */
    record Cancel(long queryId, String reason) implements ControlMessage {
    }

    /**
     * A CN finished its part of a query.
     *
     * @param stats      what this CN's senders moved
     * @param rssBytes   the CN's resident memory at its peak so far
     * @param resultType the result's columns (CN 0 only, else null)
     * @param decisions  each join's and group-by's strategy (CN 0 only, else empty)
     * @param explain    the distributed plan as text (CN 0 of a query whose {@link Prepare} asked for it, else null)
     * @param caches     what the CN's block cache holds now, by table (empty for a CN that caches no blocks)
     */
    record Finished(long queryId, long memberId, int index, QueryStats stats, long rssBytes, RowType resultType,
                    List<Decision> decisions, String explain, List<CachedBlocks> caches) implements ControlMessage {
        public Finished {
            decisions = List.copyOf(decisions);
            caches = List.copyOf(caches);
        }
    }

    /**
     * A CN's part of a query failed.
     *
     * @param errorType the simple name of the exception, so a client can tell kinds of failure apart
     * @param secondary the CN failed because another CN of the query did (it heard a sender's error):
     *                  the coordinator waits a moment for that CN's own report, the first cause
     */
    record Failed(long queryId, long memberId, int index, String errorType, String message, boolean secondary)
            implements ControlMessage {
    }

    /**
     * A CN's partial runtime filters of one filter of a query, made by its join builds, for a filter whose probe
     * scans need every CN's build (global, or per bucket before a range shuffle): the coordinator merges or
     * collects those of every CN and answers with one {@link FilterReady} to each.
     *
     * @param filterId the filter's number within the query
     * @param merge    whether the coordinator merges every partial into one (global) or keeps them by bucket
     * @param partials the partials by bucket in {@link io.sluice.engine.filter.RuntimeFilterCodec}'s form; empty when
     *                 they did not fit a message, and the filter is then dropped on every CN
     */
    record FilterPartials(long queryId, long memberId, int index, int filterId, boolean merge, byte[] partials)
            implements ControlMessage {
    }

    /**
     * The runtime filter made of every CN's partials, for each CN's probe scans.
     *
     * @param partials the merged partial (global) or the partials by bucket, in
     *                 {@link io.sluice.engine.filter.RuntimeFilterCodec}'s form; empty when the filter is dropped
     */
    record FilterReady(long queryId, int filterId, byte[] partials) implements ControlMessage {
    }

    /** Result rows of a query, one batch in the block layout. */
    record ResultBatch(long queryId, int sequence, byte[] block) implements ControlMessage {
    }

    /** The result rows are complete. */
    record ResultEnd(long queryId, int batches, long rows) implements ControlMessage {
    }

    /**
     * A client asks the coordinator to run a plan.
     *
     * @param cnCount CNs to run on; 0: every live CN
     * @param cores   cores per CN; 0: the smallest any of its CNs offers
     * @param plan    the plan and its strategy configuration, {@link io.sluice.engine.plan.PlanCodec} form
     * @param timeoutMillis how long the query may take from its arrival, queueing included; 0: no limit
     * @param explain whether {@link QueryDone} carries the plan's EXPLAIN text
     */
    record QueryRequest(StreamAddress replyTo, long requestId, String name, int cnCount, int cores, byte[] plan,
                        long timeoutMillis, boolean explain) implements ControlMessage {
    }

    /** A client stops its query (the request it sent), with why. */
    record CancelRequest(StreamAddress replyTo, long requestId, String reason) implements ControlMessage {
    }

    /** A client waiting for answers is alive: its queries go on. */
    record ClientHeartbeat(StreamAddress replyTo) implements ControlMessage {
    }

    /** The coordinator planned the query for these CNs (by index) and started it. */
    record QueryAccepted(long requestId, long queryId, int cnCount, int cores, List<String> members)
            implements ControlMessage {
        public QueryAccepted {
            members = List.copyOf(members);
        }
    }

    /** The query still runs. */
    record QueryProgress(long requestId, long queryId, long elapsedMillis) implements ControlMessage {
    }

    /**
     * The query succeeded; its rows came before this.
     *
     * @param stats   what the query moved, summed over its CNs
     * @param columns the result's column names, one per column of {@code resultType} (none without it): as SQL
     *                names them for SQL text the coordinator planned, where two may share one ({@code SELECT a.x,
     *                b.x}) while the result type's are unique ({@code x}, {@code x0}); the result type's for a plan
     * @param usage   each CN's resident memory
     */
    record QueryDone(long requestId, long queryId, QueryStats stats, RowType resultType, List<String> columns,
                     List<Decision> decisions, String explain, List<CnUsage> usage) implements ControlMessage {
        public QueryDone {
            columns = List.copyOf(columns);
            if (columns.size() != (resultType == null ? 0 : resultType.size())) {
                throw new IllegalArgumentException(columns.size() + " column names for a result of "
                        + (resultType == null ? "no columns" : resultType.size() + " columns " + resultType.names()));
            }
            decisions = List.copyOf(decisions);
            usage = List.copyOf(usage);
        }
    }

    /** The query failed: the first cause, naming the CN where it arose. */
    record QueryFailed(long requestId, long queryId, String errorType, String message) implements ControlMessage {
    }

    /** A client asks who is in the cluster. */
    record StatusRequest(StreamAddress replyTo, long requestId) implements ControlMessage {
    }

    /**
     * The membership as the coordinator sees it, and its own load.
     *
     * @param rejectedMessages control messages the coordinator dropped unread
     * @param runningQueries   queries running now
     * @param queuedQueries    queries waiting for a place
     */
    record Status(long requestId, long coordinatorIncarnation, long epoch, List<MemberStatus> members,
                  long rejectedMessages, int runningQueries, int queuedQueries) implements ControlMessage {
        public Status {
            members = List.copyOf(members);
        }
    }

    /** One CN's memory at the end of a query. */
    record CnUsage(String name, long rssBytes) {
    }

    /**
     * One CN as {@code cluster status} shows it.
     *
     * @param endpoint         where it receives control messages
     * @param sinceHeardMillis time since the coordinator last heard from it
     * @param rejectedMessages frames and control messages it dropped unread
     * @param retransmits      packets its media driver sent again
     * @param pid              its process id on its host
     * @param launched         whether the coordinator's own process started it ({@code sluice cluster up}),
     *                         so that stopping that process stops it; a CN started apart is not
     */
    record MemberStatus(String name, long memberId, String endpoint, int cores, MemberState state,
                        long sinceHeardMillis, int activeQueries, long rssBytes, long rejectedMessages,
                        long retransmits, long pid, boolean launched) {
    }
}
