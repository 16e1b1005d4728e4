package io.sluice.transport;

import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Opens the sealed frames one receiver gets, before anything in them is acted on: the frame must be
 * sealed ({@link FrameCipher}) under the key a member of the cluster derives for this receiver
 * ({@link FrameKeys}: the cluster secret, the sender's key id, this receiver's incarnation and address),
 * with its header unchanged, and its sequence number must not have come before ({@link ReplayGuard},
 * per sender key). A frame that passes is decrypted into {@link #plaintext}. Keys of senders seen are
 * kept (the least recently heard forgotten first), so a key is derived once per sender, and only for a
 * frame that then proves authentic is it remembered. Single-threaded: one per subscription.
 */
public final class FrameOpener {
    /** Sequence numbers remembered per sender: far more than threads sharing a publication ever reorder. */
    private static final int WINDOW = 1 << 16;
    private static final int MAX_SENDERS = 4096;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final FrameKeys keys;
    private final long incarnation;
    private final String channel;
    private final int stream;
    private final FrameCipher cipher = new FrameCipher();
    private final ReplayGuard guard = new ReplayGuard(WINDOW, MAX_SENDERS);
    private final Map<Long, SecretKeySpec> known = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<Long, SecretKeySpec> eldest) {
            return size() > MAX_SENDERS;
        }
    };
    private final UnsafeBuffer plaintext = new UnsafeBuffer(new byte[64 * 1024]);
    private long lastKeyId;
    private SecretKeySpec lastKey;

    /**
     * An opener for the receiver of incarnation {@code incarnation} listening on {@code channel} and
     * {@code stream}: where and what its senders seal for.
     */
    public FrameOpener(final ClusterSecret secret, final long incarnation, final String channel, final int stream) {
        this.keys = new FrameKeys(secret);
        this.incarnation = incarnation;
        this.channel = channel;
        this.stream = stream;
    }

    /**
     * Opens the frame of {@code length} bytes at {@code offset} (a whole header at least, of this
     * version).
     *
     * @return why it must be refused, or null when it was opened: then {@link #plaintext} holds its
     *         payload from index 0. A refusal reads: the kind of fault, a colon, and what exactly.
     */
    String open(final DirectBuffer buffer, final int offset, final int length) {
        final long keyId = buffer.getLong(offset + FrameHeader.KEY_ID_OFFSET, ORDER);
        final long sequence = buffer.getLong(offset + FrameHeader.SEQUENCE_OFFSET, ORDER);
        final int senderCn = buffer.getInt(offset + FrameHeader.SENDER_CN_OFFSET, ORDER);
        if ((buffer.getByte(offset + FrameHeader.FLAGS_OFFSET) & FrameHeader.FLAG_SEALED) == 0) {
            return "not sealed: a frame in clear text, claiming to come from CN " + senderCn + ": its sender has no"
                    + " cluster secret; give every process of the cluster the same --secret-file (or "
                    + ClusterSecret.FILE_ENV + ")";
        }
        final int payloadLength = buffer.getInt(offset + FrameHeader.PAYLOAD_LENGTH_OFFSET, ORDER);
        if (payloadLength < 0 || FrameCipher.sealedLength(payloadLength) != length - FrameHeader.LENGTH) {
            return "not a frame: " + length + " bytes, but a sealed payload of " + payloadLength + " bytes takes "
                    + (payloadLength < 0 ? "none" : FrameHeader.LENGTH + FrameCipher.sealedLength(payloadLength));
        }
        if (plaintext.capacity() < payloadLength) {
            plaintext.wrap(new byte[Math.max(payloadLength, 2 * plaintext.capacity())]);
        }
        SecretKeySpec key = keyOf(keyId);
        final boolean seen = key != null;
        if (!seen) {
            key = keys.key(keyId, incarnation, channel, stream);
        }
        if (!cipher.open(key, buffer, offset, payloadLength, plaintext, 0)) {
            return seen ? "tag does not match: frame " + sequence + " under key " + Long.toHexString(keyId)
                    + ", known here from CN " + senderCn + ", was altered on the way"
                    : "tag does not match: frame " + sequence + " under key " + Long.toHexString(keyId)
                    + ", claiming to come from CN " + senderCn + ", was not sealed for this receiver by a member of"
                    + " its cluster (another secret, or sealed for another CN or an earlier start of this one), or"
                    + " was altered on the way";
        }
        if (!seen) {
            known.put(keyId, key);
            lastKeyId = keyId;
            lastKey = key;
        }
        return switch (guard.accept(keyId, sequence)) {
            case NEW -> null;
            case REPLAYED -> "replay: frame " + sequence + " under key " + Long.toHexString(keyId) + " of CN "
                    + senderCn + " came before";
            case STALE -> "replay: frame " + sequence + " under key " + Long.toHexString(keyId) + " of CN " + senderCn
                    + " is older than the " + WINDOW + " frames remembered";
            case INVALID -> "bad sequence: " + sequence + " is not a frame number";
        };
    }

    /** The payload of the frame {@link #open} opened last; valid until the next one. */
    UnsafeBuffer plaintext() {
        return plaintext;
    }

    private SecretKeySpec keyOf(final long keyId) {
        if (keyId == lastKeyId && lastKey != null) {
            return lastKey;
        }
        final SecretKeySpec key = known.get(keyId);
        if (key != null) {
            lastKeyId = keyId;
            lastKey = key;
        }
        return key;
    }
}
