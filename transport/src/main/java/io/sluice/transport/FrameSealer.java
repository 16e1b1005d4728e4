package io.sluice.transport;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a sending process puts in the frames it sends to one receiver: a key id, random per sealer,
 * the next sequence number (from 1, shared by every thread that sends there) and, with a cluster secret,
 * the AES-GCM key that seals those frames ({@link FrameKeys}: from the secret, this key id and the
 * receiver's incarnation and address). Thread-safe; each sending thread seals with its own
 * {@link FrameCipher}.
 *
 * <p>A frame's GCM nonce is its sequence number (with the segment's index, {@link FrameCipher}), and a
 * (key, nonce) pair is never used twice: the key belongs to this sealer alone, and the sequence only
 * grows. The key is this sealer's own because its key id is 64 bits from {@link SecureRandom}, drawn
 * when it is made: a sealer made again for the same receiver (in this process, after a restart of it,
 * for a new query or a new publication) gets a new key, and two sealers for one receiver share one only
 * if they draw the same id, at odds of 2<sup>-64</sup> per pair; a receiver's restart changes its
 * incarnation and so every key for it. The sequence cannot wrap: after 2<sup>63</sup> - 1 frames (three
 * million years at 10^5 frames a second) {@link #nextSequence} refuses, and a new sealer starts afresh
 * under a new key.
 */
public final class FrameSealer {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final long keyId;
    private final SecretKeySpec key;
    private final String receiver;
    private final AtomicLong sequence = new AtomicLong();

    private FrameSealer(final long keyId, final SecretKeySpec key, final String receiver) {
        this.keyId = keyId;
        this.key = key;
        this.receiver = receiver;
    }

    /** Frames numbered but in clear text (a cluster without a secret). */
    public static FrameSealer plain() {
        return new FrameSealer(newKeyId(), null, "a receiver");
    }

    /**
     * Frames sealed for the receiver of incarnation {@code receiverIncarnation} listening on {@code channel}
     * and {@code stream}; in clear text when {@code secret} is null.
     */
    public static FrameSealer of(final ClusterSecret secret, final long receiverIncarnation, final String channel,
            final int stream) {
        final long keyId = newKeyId();
        final String receiver = channel + " stream " + stream;
        return secret == null ? new FrameSealer(keyId, null, receiver)
                : new FrameSealer(keyId, new FrameKeys(secret).key(keyId, receiverIncarnation, channel, stream),
                        receiver);
    }

    private static long newKeyId() {
        long id;
        do {
            id = RANDOM.nextLong();
        } while (id == 0);
        return id;
    }

    /** Continues the numbering after {@code last}: for tests of what happens near the end. */
    FrameSealer continuingAfter(final long last) {
        sequence.set(last);
        return this;
    }

    /** The id of this sealer's key, which its frames carry. */
    public long keyId() {
        return keyId;
    }

    /** Whether frames are sealed (there is a cluster secret). */
    public boolean seals() {
        return key != null;
    }

    SecretKeySpec key() {
        return key;
    }

    /**
     * The next frame's number, its GCM nonce.
     *
     * @throws TransportException once 2<sup>63</sup> - 1 numbers are used: a nonce is never used twice
     */
    long nextSequence() {
        final long next = sequence.incrementAndGet();
        if (next <= 0) {
            throw new TransportException("the frames to " + receiver + " under key " + Long.toHexString(keyId)
                    + " have used every sequence number: a nonce is never reused, so open a new publisher (a new"
                    + " sealer draws a new key)");
        }
        return next;
    }
}
