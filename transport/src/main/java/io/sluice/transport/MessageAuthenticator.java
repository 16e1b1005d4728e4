package io.sluice.transport;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Tags messages with HMAC-SHA256 under one key, truncated to {@link #TAG_LENGTH} bytes, and checks
 * such tags in constant time. A tag covers every byte of the message except the tag's own place, so
 * the tag can sit anywhere in it (a header field, a trailer). Works over any Agrona buffer, on or off
 * the heap; allocates nothing per message. Single-threaded: one instance per sending or receiving
 * thread.
 */
public final class MessageAuthenticator {
    /** The JCA name of the MAC. */
    static final String ALGORITHM = "HmacSHA256";
    /** Bytes of a tag: the first half of the HMAC-SHA256 output. */
    public static final int TAG_LENGTH = 16;
    private static final int SCRATCH = 16 * 1024;

    private final Mac mac;
    private final byte[] scratch = new byte[SCRATCH];
    private final byte[] full = new byte[32];
    private final byte[] received = new byte[TAG_LENGTH];

    /** An authenticator with a 32-byte key from {@link ClusterSecret#key}. */
    public MessageAuthenticator(final byte[] key) {
        try {
            mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no " + ALGORITHM + ": " + e, e);
        }
    }

    /**
     * Writes the tag of the message {@code [offset, offset + length)} at {@code tagOffset}, which lies
     * inside it.
     */
    public void sign(final MutableDirectBuffer buffer, final int offset, final int length, final int tagOffset) {
        compute(buffer, offset, length, tagOffset);
        buffer.putBytes(tagOffset, full, 0, TAG_LENGTH);
    }

    /**
     * Writes at {@code tagOffset}, inside {@code head}, the tag of a message whose bytes are
     * {@code head}'s {@code [headOffset, headOffset + headLength)} followed by {@code tail}'s
     * {@code [tailOffset, tailOffset + tailLength)}: the same tag {@link #verify} finds once the two
     * parts lie one after the other.
     */
    public void sign(final MutableDirectBuffer head, final int headOffset, final int headLength, final int tagOffset,
            final DirectBuffer tail, final int tailOffset, final int tailLength) {
        update(head, headOffset, tagOffset - headOffset);
        update(head, tagOffset + TAG_LENGTH, headOffset + headLength - tagOffset - TAG_LENGTH);
        if (tailLength > 0) {
            update(tail, tailOffset, tailLength);
        }
        finish();
        head.putBytes(tagOffset, full, 0, TAG_LENGTH);
    }

    /**
     * Whether the tag at {@code tagOffset} is the one this key gives the message {@code [offset, offset +
     * length)}.
     */
    public boolean verify(final DirectBuffer buffer, final int offset, final int length, final int tagOffset) {
        compute(buffer, offset, length, tagOffset);
        buffer.getBytes(tagOffset, received, 0, TAG_LENGTH);
        int difference = 0;
        for (int i = 0; i < TAG_LENGTH; i++) {
            difference |= received[i] ^ full[i];
        }
        return difference == 0;
    }

    private void compute(final DirectBuffer buffer, final int offset, final int length, final int tagOffset) {
        update(buffer, offset, tagOffset - offset);
        update(buffer, tagOffset + TAG_LENGTH, offset + length - tagOffset - TAG_LENGTH);
        finish();
    }

    private void finish() {
        try {
            mac.doFinal(full, 0);
        } catch (final ShortBufferException e) {
            throw new IllegalStateException(e);
        }
    }

    private void update(final DirectBuffer buffer, final int offset, final int length) {
        if (length <= 0) {
            return;
        }
        final byte[] array = buffer.byteArray();
        if (array != null) {
            mac.update(array, (int) buffer.wrapAdjustment() + offset, length);
            return;
        }
        for (int done = 0; done < length; ) {
            final int n = Math.min(SCRATCH, length - done);
            buffer.getBytes(offset + done, scratch, 0, n);
            mac.update(scratch, 0, n);
            done += n;
        }
    }
}
