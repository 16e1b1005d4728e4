package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.ControlLinkException;
import io.sluice.dispatch.control.ControlMessage;
import io.sluice.dispatch.control.ControlPublisher;
import io.sluice.transport.DoorbellRinger;
import io.sluice.transport.ProcessActivity;
import java.util.ArrayDeque;

/**
 * A process a control loop sends to (a CN or a client), with the messages its publication did not
 * take yet: {@link #send} never waits, what does not go out now goes out on a later {@link #drain},
 * in order. A message the peer waits for ({@link #sendAwaited}) also wakes this process's driver and
 * rings the peer's doorbell, when it has one, so neither side's idle threads sit it out in a park.
 * Used by one thread, the control loop's.
 */
final class Peer implements AutoCloseable {
    private final ControlPublisher publisher;
    private final ProcessActivity activity;
    private final DoorbellRinger ringer;
    private String bellHost = "";
    private int bellPort;
    private final ArrayDeque<ControlMessage> outbox = new ArrayDeque<>();
    private long lastUsedNs = System.nanoTime();
    private long heardNs = System.nanoTime();
    private boolean broken;

    /**
     * @param activity this process's activity, woken after a message the peer waits for
     * @param ringer   rings the peer's doorbell (the control loop's own; this peer does not close it)
     */
    Peer(final ControlPublisher publisher, final ProcessActivity activity, final DoorbellRinger ringer) {
        this.publisher = publisher;
        this.activity = activity;
        this.ringer = ringer;
    }

    /** The peer's doorbell: UDP {@code port} on {@code host} (port 0: none). */
    void doorbell(final String host, final int port) {
        this.bellHost = host;
        this.bellPort = port;
    }

    /**
     * Sends a message the peer waits for on a query's critical path, as {@link #send}, then wakes this
     * process's driver (it sends at once) and rings the peer (its driver and control loop poll at once).
     */
    void sendAwaited(final ControlMessage message) {
        send(message);
        activity.wake();
        ringer.ring(bellHost, bellPort);
    }

    /** Sends now if nothing waits before it and the publication takes it, else keeps it for {@link #drain}. */
    void send(final ControlMessage message) {
        lastUsedNs = System.nanoTime();
        if (broken) {
            return;
        }
        if (outbox.isEmpty() && offer(message)) {
            return;
        }
        outbox.addLast(message);
    }

    /** Sends what waits, in order, until the publication refuses; returns the messages sent. */
    int drain() {
        int sent = 0;
        while (!outbox.isEmpty() && offer(outbox.peekFirst())) {
            outbox.pollFirst();
            sent++;
        }
        return sent;
    }

    private boolean offer(final ControlMessage message) {
        try {
            return publisher.offer(message);
        } catch (final ControlLinkException | IllegalArgumentException e) {
            // A closed publication or a message it can never take: nothing more goes to this peer.
            broken = true;
            outbox.clear();
            return true;
        }
    }

    /** The largest message the publication takes. */
    int maxMessageLength() {
        return publisher.maxMessageLength();
    }

    /** Messages waiting to go out. */
    int waiting() {
        return outbox.size();
    }

    /** The peer spoke (a client's request or heartbeat). */
    void heard(final long now) {
        heardNs = now;
    }

    /** When the peer last spoke. */
    long heardNs() {
        return heardNs;
    }

    /** When this peer was last sent to. */
    long lastUsedNs() {
        return lastUsedNs;
    }

    ControlPublisher publisher() {
        return publisher;
    }

    @Override
    public void close() {
        publisher.close();
    }
}
