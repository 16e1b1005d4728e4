package io.sluice.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import javax.crypto.spec.SecretKeySpec;

/**
 * Derives the AES keys that seal data frames: one per sender key and receiver, with HKDF-SHA256 from
 * the cluster secret, the sender's key id (random per sending process and receiver, carried in every
 * frame), the receiver's incarnation (random per receiving process start, announced when it registered
 * and handed to its senders by the coordinator) and the channel and stream the receiver listens on. So
 * a frame sealed for one receiver opens at no other, nor at a later start of the same one, and no two
 * senders share a key. Single-threaded.
 */
final class FrameKeys {
    /** AES-256. */
    static final int KEY_LENGTH = 32;
    static final String ALGORITHM = "AES";

    private final Hkdf hkdf;

    FrameKeys(final ClusterSecret secret) {
        this.hkdf = secret.hkdf("data frames");
    }

    /** The key of the frames sender key {@code keyId} seals for the receiver {@code receiverIncarnation}. */
    SecretKeySpec key(final long keyId, final long receiverIncarnation, final String channel, final int stream) {
        final byte[] address = channel.getBytes(StandardCharsets.UTF_8);
        final ByteBuffer info = ByteBuffer.allocate(20 + address.length).order(ByteOrder.LITTLE_ENDIAN);
        info.putLong(keyId).putLong(receiverIncarnation).putInt(stream).put(address);
        return new SecretKeySpec(hkdf.expand(info.array(), KEY_LENGTH), ALGORITHM);
    }
}
