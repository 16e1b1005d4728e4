package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.ControlMessage;
import io.sluice.dispatch.control.StreamAddress;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Answers to processes the coordinator has no peer for (a stranger without the cluster secret, a
 * process of another version, a CN it refuses): each goes on a publication of its own, kept open a
 * few seconds so that it connects and the answer goes out, then closed. At most {@link #PER_SECOND}
 * a second, one per address, and {@link #MAX_OPEN} open at once: a flood of bad messages cannot make
 * the coordinator open publications without end. Used by the coordinator's control loop only.
 */
final class OneOffReplies implements AutoCloseable {
    static final int PER_SECOND = 10;
    static final int MAX_OPEN = 32;
    private static final long LINGER_NS = TimeUnit.SECONDS.toNanos(3);
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    private record Open(Peer peer, long openedNs) {
    }

    private final Function<StreamAddress, Peer> peers;
    private final Map<StreamAddress, Open> open = new LinkedHashMap<>();
    private long windowStartNs;
    private int sentInWindow;
    private long dropped;

    OneOffReplies(final Function<StreamAddress, Peer> peers) {
        this.peers = peers;
    }

    /** Sends {@code message} to {@code to} unless the rate or the address's open reply forbids it. */
    void send(final StreamAddress to, final ControlMessage message, final long now) {
        if (now - windowStartNs > SECOND_NS) {
            windowStartNs = now;
            sentInWindow = 0;
        }
        if (open.containsKey(to) || open.size() >= MAX_OPEN || sentInWindow >= PER_SECOND) {
            dropped++;
            return;
        }
        sentInWindow++;
        final Peer peer = peers.apply(to);
        peer.send(message);
        open.put(to, new Open(peer, now));
    }

    /** Sends what waits and closes the publications older than the linger. */
    int drain(final long now) {
        int sent = 0;
        for (final Iterator<Open> it = open.values().iterator(); it.hasNext(); ) {
            final Open o = it.next();
            sent += o.peer().drain();
            if (now - o.openedNs() > LINGER_NS) {
                o.peer().close();
                it.remove();
            }
        }
        return sent;
    }

    /** Answers not sent because of the limits. */
    long dropped() {
        return dropped;
    }

    @Override
    public void close() {
        for (final Open o : open.values()) {
            o.peer().drain();
            o.peer().close();
        }
        open.clear();
    }
}
