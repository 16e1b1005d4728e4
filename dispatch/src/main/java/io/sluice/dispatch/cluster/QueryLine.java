package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.ControlMessage.QueryRequest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The queries waiting for one of the coordinator's places ({@link ClusterContext#maxQueries}), first
 * come first served: each leaves when a place frees, when it waited the queue timeout or its own
 * timeout, or when its client cancels it. Used by the coordinator's control loop only.
 */
final class QueryLine {
    /** A request waiting, its client and when it arrived. */
    record Waiting(QueryRequest request, Peer client, long arrivedNs) {
        /** When the query's own timeout ends, or {@link Long#MAX_VALUE} when it has none. */
        long deadlineNs() {
            return request.timeoutMillis() == 0 ? Long.MAX_VALUE
                    : arrivedNs + TimeUnit.MILLISECONDS.toNanos(request.timeoutMillis());
        }
    }

    /** A waiting request that must leave the line, and why. */
    record Expired(Waiting waiting, String errorType, String reason) {
    }

    private final ClusterContext context;
    private final ArrayDeque<Waiting> line = new ArrayDeque<>();

    QueryLine(final ClusterContext context) {
        this.context = context;
    }

    /** Whether one more may wait. */
    boolean hasRoom() {
        return line.size() < context.maxQueued();
    }

    void add(final Waiting waiting) {
        line.addLast(waiting);
    }

    /** The first in line, taken out, or null. */
    Waiting next() {
        return line.pollFirst();
    }

    /** Whether a request of {@code client} waits. */
    boolean has(final Peer client) {
        for (final Waiting w : line) {
            if (w.client() == client) {
                return true;
            }
        }
        return false;
    }

    /** Takes out the request {@code requestId} of {@code client}, or returns null when it does not wait. */
    Waiting remove(final Peer client, final long requestId) {
        for (final Iterator<Waiting> it = line.iterator(); it.hasNext(); ) {
            final Waiting w = it.next();
            if (w.client() == client && w.request().requestId() == requestId) {
                it.remove();
                return w;
            }
        }
        return null;
    }

    /** Takes out the requests that waited too long or whose client went away, with why. */
    List<Expired> expire(final long now) {
        final List<Expired> expired = new ArrayList<>();
        for (final Iterator<Waiting> it = line.iterator(); it.hasNext(); ) {
            final Waiting w = it.next();
            final String name = "query " + w.request().name() + " (request " + w.request().requestId() + ")";
            if (now - w.arrivedNs() > context.queueTimeoutNs()) {
                expired.add(new Expired(w, "QueueTimeoutException", name + " waited "
                        + TimeUnit.NANOSECONDS.toMillis(now - w.arrivedNs()) + " ms for one of the coordinator's "
                        + context.maxQueries() + " query places (" + ClusterContext.MAX_QUERIES_PROP_NAME + ", "
                        + ClusterContext.QUEUE_TIMEOUT_PROP_NAME + "): try again when fewer queries run"));
            } else if (w.request().timeoutMillis() != 0 && now - w.deadlineNs() > 0) {
                expired.add(new Expired(w, "TimeoutException", name + " reached its timeout of "
                        + w.request().timeoutMillis() + " ms while it waited for a place"));
            } else if (now - w.client().heardNs() > context.deadTimeoutNs()) {
                expired.add(new Expired(w, "QueryCancelledException", name + " was cancelled: its client went away"));
            } else {
                continue;
            }
            it.remove();
        }
        return expired;
    }

    int size() {
        return line.size();
    }
}
