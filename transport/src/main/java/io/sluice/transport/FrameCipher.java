package io.sluice.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Seals and opens data frames with AES-GCM: the frame's header is authenticated (additional data), its
 * payload encrypted, and the 16-byte tag follows the encrypted payload. The 96-bit nonce is the frame's
 * sequence number (little-endian, then four zero bytes), which its {@link FrameSealer} never gives twice
 * under one key. One {@code doFinal} per frame, straight between the caller's buffers and Aeron's (heap
 * or direct, through views this keeps), so nothing of this class's own is allocated per frame; the
 * JDK's GCM itself allocates a few small objects per {@code init}. Single-threaded: one per sending or
 * receiving thread.
 */
public final class FrameCipher {
    /** Bytes of the GCM tag after the encrypted payload. */
    public static final int TAG_LENGTH = 16;
    static final String TRANSFORMATION = "AES/GCM/NoPadding";
    private static final int NONCE_LENGTH = 12;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final Cipher cipher;
    private final byte[] nonce = new byte[NONCE_LENGTH];
    private final byte[] header = new byte[FrameHeader.LENGTH];
    private final BufferView in = new BufferView();
    private final BufferView out = new BufferView();

    public FrameCipher() {
        try {
            cipher = Cipher.getInstance(TRANSFORMATION);
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no " + TRANSFORMATION + ": " + e, e);
        }
    }

    /**
     * Encrypts the payload {@code src[srcOffset, srcOffset + length)} into {@code dst} at {@code dstOffset},
     * followed by the tag over it and the frame header at {@code headerOffset} of {@code frameHeader}
     * (written already, sequence included).
     */
    void seal(final SecretKeySpec key, final DirectBuffer frameHeader, final int headerOffset, final DirectBuffer src,
            final int srcOffset, final int length, final MutableDirectBuffer dst, final int dstOffset) {
        start(Cipher.ENCRYPT_MODE, key, frameHeader, headerOffset);
        try {
            final ByteBuffer input = length == 0 ? EMPTY.clear() : in.input(src, srcOffset, length);
            cipher.doFinal(input, out.output(dst, dstOffset, length + TAG_LENGTH));
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused to seal a frame of " + length + " bytes: " + e, e);
        }
        out.flush();
    }

    /**
     * Decrypts the sealed payload of the frame at {@code offset} ({@code sealedLength} bytes of encrypted
     * payload and tag after its header) into {@code dst} at {@code dstOffset}, if its tag matches.
     *
     * @return whether the frame is authentic under {@code key}; when not, {@code dst} holds nothing of it
     */
    boolean open(final SecretKeySpec key, final DirectBuffer frame, final int offset, final int sealedLength,
            final MutableDirectBuffer dst, final int dstOffset) {
        start(Cipher.DECRYPT_MODE, key, frame, offset);
        try {
            cipher.doFinal(in.input(frame, offset + FrameHeader.LENGTH, sealedLength),
                    out.output(dst, dstOffset, sealedLength - TAG_LENGTH));
        } catch (final AEADBadTagException e) {
            return false;
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused to open a frame of " + sealedLength + " bytes: " + e, e);
        }
        out.flush();
        return true;
    }

    private void start(final int mode, final SecretKeySpec key, final DirectBuffer frameHeader, final int offset) {
        final long sequence = frameHeader.getLong(offset + FrameHeader.SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 8; i++) {
            nonce[i] = (byte) (sequence >>> (8 * i));
        }
        frameHeader.getBytes(offset, header, 0, FrameHeader.LENGTH);
        try {
            cipher.init(mode, key, new GCMParameterSpec(8 * TAG_LENGTH, nonce));
            // From a heap array: the JDK copies additional data given in a direct buffer into a new array.
            cipher.updateAAD(header);
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused key or nonce: " + e, e);
        }
    }

    /**
     * A {@link ByteBuffer} over a range of an Agrona buffer, made once per backing array or buffer and
     * repositioned per frame. A buffer over raw memory (neither) is staged through a heap copy.
     */
    private static final class BufferView {
        private byte[] array;
        private ByteBuffer arrayView;
        private ByteBuffer direct;
        private ByteBuffer directView;
        private byte[] staging = new byte[0];
        private ByteBuffer stagingView = ByteBuffer.wrap(staging);
        private MutableDirectBuffer stagedTo;
        private int stagedIndex;
        private int stagedLength;

        ByteBuffer input(final DirectBuffer buffer, final int index, final int length) {
            buffer.boundsCheck(index, length);
            final ByteBuffer view = view(buffer, index, length);
            if (view != null) {
                return view;
            }
            buffer.getBytes(index, stage(length), 0, length);
            return stagingView.clear().limit(length);
        }

        ByteBuffer output(final MutableDirectBuffer buffer, final int index, final int length) {
            buffer.boundsCheck(index, length);
            stagedTo = null;
            final ByteBuffer view = view(buffer, index, length);
            if (view != null) {
                return view;
            }
            stage(length);
            stagedTo = buffer;
            stagedIndex = index;
            stagedLength = length;
            return stagingView.clear().limit(length);
        }

        /** Copies output written to the staging array to its buffer. */
        void flush() {
            if (stagedTo != null) {
                stagedTo.putBytes(stagedIndex, staging, 0, stagedLength);
                stagedTo = null;
            }
        }

        private ByteBuffer view(final DirectBuffer buffer, final int index, final int length) {
            final byte[] bytes = buffer.byteArray();
            if (bytes != null) {
                if (bytes != array) {
                    array = bytes;
                    arrayView = ByteBuffer.wrap(bytes);
                }
                final int at = buffer.wrapAdjustment() + index;
                return arrayView.clear().position(at).limit(at + length);
            }
            final ByteBuffer backing = buffer.byteBuffer();
            if (backing == null) {
                return null;
            }
            if (backing != direct) {
                direct = backing;
                directView = backing.duplicate();
            }
            final int at = buffer.wrapAdjustment() + index;
            return directView.clear().position(at).limit(at + length);
        }

        private byte[] stage(final int length) {
            if (staging.length < length) {
                staging = new byte[length];
                stagingView = ByteBuffer.wrap(staging);
            }
            return staging;
        }
    }
}
