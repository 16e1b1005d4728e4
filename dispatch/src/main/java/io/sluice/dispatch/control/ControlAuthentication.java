package io.sluice.dispatch.control;

import io.sluice.transport.ClusterSecret;
import io.sluice.transport.MessageAuthenticator;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How one process (a coordinator, a CN, a client) signs and checks control messages: its
 * incarnation, which every message it sends carries as the sender and every message it accepts must
 * name as the receiver, and the cluster secret, if there is one, under which each message's tag is
 * made. Keys differ per stream ({@link #authenticator}), so a message meant for one stream is refused
 * on every other. Messages are numbered from 1 across all of the process's publishers
 * ({@link #nextSequence}), so that two publishers reaching one receiver never repeat a number.
 * Thread-safe.
 */
public final class ControlAuthentication {
    private final ClusterSecret secret;
    private final long incarnation;
    private final AtomicLong sequence = new AtomicLong();

    /** @param secret the cluster secret, or null for a cluster without one (loopback only) */
    public ControlAuthentication(final ClusterSecret secret, final long incarnation) {
        if (incarnation == 0) {
            throw new IllegalArgumentException("an incarnation is never 0: 0 stands for an unknown receiver");
        }
        this.secret = secret;
        this.incarnation = incarnation;
    }

    /** The process's incarnation. */
    public long incarnation() {
        return incarnation;
    }

    /** The next message's number. */
    long nextSequence() {
        return sequence.incrementAndGet();
    }

    /** The cluster secret, or null. */
    public ClusterSecret secret() {
        return secret;
    }

    /** Whether messages are tagged and tags are checked. */
    public boolean authenticates() {
        return secret != null;
    }

    /** A new authenticator of the messages on {@code stream}, or null without a secret. One per thread. */
    MessageAuthenticator authenticator(final int stream) {
        return secret == null ? null : new MessageAuthenticator(secret.key("control messages on stream " + stream));
    }
}
