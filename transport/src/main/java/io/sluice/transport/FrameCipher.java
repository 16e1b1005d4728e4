package io.sluice.transport;

import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Seals and opens data frames with AES-GCM: the frame's header is authenticated (additional data) and
 * its payload encrypted, in segments of up to {@link #SEGMENT_LENGTH} bytes, each followed by its 16-byte
 * tag. Segment {@code i}'s 96-bit nonce is the frame's sequence number (little-endian) then {@code i}
 * (little-endian, 32 bits); the sequence is never given twice under one key ({@link FrameSealer}) and
 * the segment index is unique within the frame, so no (key, nonce) pair repeats. Every segment
 * authenticates the whole header, whose payload length fixes how many segments there are, so segments
 * cannot be dropped, added, reordered or moved between frames. One {@code init} and one {@code doFinal}
 * per segment, between heap arrays: direct memory (Aeron's log, the caller's direct buffers) is copied
 * through two staging arrays of one segment. Nothing of this class's own is allocated per frame; the
 * JDK's GCM allocates a few hundred bytes per {@code init} (about 2 KB per 64 KiB frame, sealed and
 * opened). Single-threaded: one per sending or receiving thread.
 *
 * <p>Measured with {@code AesGcmBenchmark} (64 KiB, AES-256, one thread): JDK 17 seals or opens about
 * 100,000 segments a second between heap arrays and 75,000-86,000 when either side is direct, so a
 * staging copy costs nothing; JDK 25 184,000 between heap arrays, 72,000 otherwise. Segments, because the
 * JDK's AES and GHASH intrinsics only run from compiled code and HotSpot compiles by calls, not bytes:
 * frames of a MiB in one call ran at about 80 MB/s for seconds after start, and in one heap array stayed
 * at 75-90 a second; a call costs about 0.5 us beyond its bytes, some 4% of a full segment.
 */
public final class FrameCipher {
    /** Bytes of the GCM tag after each encrypted segment. */
    public static final int TAG_LENGTH = 16;
    /** Most payload bytes one segment encrypts. */
    public static final int SEGMENT_LENGTH = 64 * 1024;
    static final String TRANSFORMATION = "AES/GCM/NoPadding";
    private static final int NONCE_LENGTH = 12;
    private static final byte[] EMPTY = new byte[0];

    private final Cipher cipher;
    private final byte[] nonce = new byte[NONCE_LENGTH];
    private final byte[] header = new byte[FrameHeader.LENGTH];
    /** Heap copies of direct input and output: the JDK's GCM is fastest between heap arrays. */
    private final byte[] inStage = new byte[SEGMENT_LENGTH + TAG_LENGTH];
    private final byte[] outStage = new byte[SEGMENT_LENGTH + TAG_LENGTH];
    private byte[] inArray;
    private byte[] outArray;

    public FrameCipher() {
        try {
            cipher = Cipher.getInstance(TRANSFORMATION);
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no " + TRANSFORMATION + ": " + e, e);
        }
    }

    /** Segments of a payload of {@code payloadLength} bytes: at least one, so an empty payload has a tag. */
    static long segments(final long payloadLength) {
        return payloadLength <= SEGMENT_LENGTH ? 1 : (payloadLength + SEGMENT_LENGTH - 1) / SEGMENT_LENGTH;
    }

    /** Bytes a payload of {@code payloadLength} bytes takes sealed: itself and a tag per segment. */
    public static long sealedLength(final long payloadLength) {
        return payloadLength + TAG_LENGTH * segments(payloadLength);
    }

    /** The largest payload whose sealed form fits in {@code capacity} bytes (0 when not even a tag fits). */
    public static int maxPayloadLength(final int capacity) {
        final int full = capacity / (SEGMENT_LENGTH + TAG_LENGTH);
        final int rest = capacity - full * (SEGMENT_LENGTH + TAG_LENGTH);
        return full * SEGMENT_LENGTH + Math.max(0, rest - TAG_LENGTH);
    }

    /**
     * Encrypts the payload {@code src[srcOffset, srcOffset + length)} into {@code dst} at {@code dstOffset},
     * {@link #sealedLength} bytes of segments and tags, authenticating with each the frame header at
     * {@code headerOffset} of {@code frameHeader} (written already, sequence included).
     */
    void seal(final SecretKeySpec key, final DirectBuffer frameHeader, final int headerOffset, final DirectBuffer src,
            final int srcOffset, final int length, final MutableDirectBuffer dst, final int dstOffset) {
        final long sequence = readHeader(frameHeader, headerOffset);
        int done = 0;
        int at = dstOffset;
        int segment = 0;
        do {
            final int n = Math.min(SEGMENT_LENGTH, length - done);
            start(Cipher.ENCRYPT_MODE, key, sequence, segment);
            final int inAt = n == 0 ? 0 : in(src, srcOffset + done, n);
            final byte[] input = n == 0 ? EMPTY : inArray;
            final int outAt = out(dst, at, n + TAG_LENGTH);
            try {
                cipher.doFinal(input, inAt, n, outArray, outAt);
            } catch (final GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM refused to seal a frame of " + length + " bytes: " + e, e);
            }
            flush(dst, at, n + TAG_LENGTH);
            done += n;
            at += n + TAG_LENGTH;
            segment++;
        } while (done < length);
    }

    /**
     * Decrypts the sealed payload of the frame at {@code offset} (its {@code payloadLength} bytes sealed,
     * {@link #sealedLength} of them, after the header) into {@code dst} at {@code dstOffset}, if every
     * segment's tag matches.
     *
     * @return whether the frame is authentic under {@code key}; when not, {@code dst} holds nothing to use
     */
    boolean open(final SecretKeySpec key, final DirectBuffer frame, final int offset, final int payloadLength,
            final MutableDirectBuffer dst, final int dstOffset) {
        final long sequence = readHeader(frame, offset);
        int done = 0;
        int at = offset + FrameHeader.LENGTH;
        int segment = 0;
        do {
            final int n = Math.min(SEGMENT_LENGTH, payloadLength - done);
            start(Cipher.DECRYPT_MODE, key, sequence, segment);
            final int inAt = in(frame, at, n + TAG_LENGTH);
            final int outAt = out(dst, dstOffset + done, n);
            try {
                cipher.doFinal(inArray, inAt, n + TAG_LENGTH, outArray, outAt);
            } catch (final AEADBadTagException e) {
                return false;
            } catch (final GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM refused to open a frame of " + payloadLength + " bytes: " + e,
                        e);
            }
            flush(dst, dstOffset + done, n);
            done += n;
            at += n + TAG_LENGTH;
            segment++;
        } while (done < payloadLength);
        return true;
    }

    private long readHeader(final DirectBuffer frameHeader, final int offset) {
        frameHeader.getBytes(offset, header, 0, FrameHeader.LENGTH);
        return frameHeader.getLong(offset + FrameHeader.SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    private void start(final int mode, final SecretKeySpec key, final long sequence, final int segment) {
        for (int i = 0; i < 8; i++) {
            nonce[i] = (byte) (sequence >>> (8 * i));
        }
        for (int i = 0; i < 4; i++) {
            nonce[8 + i] = (byte) (segment >>> (8 * i));
        }
        try {
            cipher.init(mode, key, new GCMParameterSpec(8 * TAG_LENGTH, nonce));
            cipher.updateAAD(header);
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused key or nonce: " + e, e);
        }
    }

    /** Points {@link #inArray} at {@code buffer}'s bytes, copying them when they are not on the heap; returns where. */
    private int in(final DirectBuffer buffer, final int index, final int length) {
        buffer.boundsCheck(index, length);
        final byte[] array = buffer.byteArray();
        if (array != null) {
            inArray = array;
            return buffer.wrapAdjustment() + index;
        }
        buffer.getBytes(index, inStage, 0, length);
        inArray = inStage;
        return 0;
    }

    /** Points {@link #outArray} at {@code buffer}'s bytes, or at the staging array when they are not on the heap. */
    private int out(final MutableDirectBuffer buffer, final int index, final int length) {
        buffer.boundsCheck(index, length);
        final byte[] array = buffer.byteArray();
        if (array != null) {
            outArray = array;
            return buffer.wrapAdjustment() + index;
        }
        outArray = outStage;
        return 0;
    }

    /** Copies output written to the staging array to its buffer. */
    private void flush(final MutableDirectBuffer buffer, final int index, final int length) {
        if (outArray == outStage) {
            buffer.putBytes(index, outStage, 0, length);
        }
    }
}
