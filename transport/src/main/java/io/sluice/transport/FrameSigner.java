package io.sluice.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a sending process puts in the frames it sends to one receiver: its incarnation, the next
 * sequence number (from 1, shared by every thread that sends there) and, with a cluster secret, the
 * key of that receiver's tags, derived from the secret and the address the receiver listens on
 * ({@link #receiverKey}), so that a frame made for one receiver is refused by every other. Thread-safe;
 * each sending thread makes its own {@link MessageAuthenticator} from it.
 */
public final class FrameSigner {
    private final long incarnation;
    private final byte[] key;
    private final AtomicLong sequence = new AtomicLong();

    private FrameSigner(final long incarnation, final byte[] key) {
        this.incarnation = incarnation;
        this.key = key;
    }

    /** Frames numbered but not tagged (a cluster without a secret). */
    public static FrameSigner unsigned(final long incarnation) {
        return new FrameSigner(incarnation, null);
    }

    /**
     * Frames numbered and tagged for the receiver on {@code channel} and {@code stream}; unsigned when
     * {@code secret} is null.
     */
    public static FrameSigner of(final ClusterSecret secret, final long incarnation, final String channel,
            final int stream) {
        return new FrameSigner(incarnation, secret == null ? null : receiverKey(secret, channel, stream));
    }

    /** The key of the tags of frames to the receiver on {@code channel} and {@code stream}. */
    static byte[] receiverKey(final ClusterSecret secret, final String channel, final int stream) {
        return secret.key("data frames to " + channel + " stream " + stream);
    }

    /** The sending process's incarnation. */
    public long incarnation() {
        return incarnation;
    }

    /** The next frame's number. */
    long nextSequence() {
        return sequence.incrementAndGet();
    }

    /** An authenticator for one sending thread, or null when frames are not tagged. */
    MessageAuthenticator newAuthenticator() {
        return key == null ? null : new MessageAuthenticator(key);
    }
}
