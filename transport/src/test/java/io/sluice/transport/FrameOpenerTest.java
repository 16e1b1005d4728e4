package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Sealing and opening frames without a driver: a frame a member seals for a receiver opens there to its
 * payload, from and into heap, direct and raw memory; changing any byte of it, sending it again, or
 * sealing it under any other key (another secret, another receiver, an earlier start of this one) gets it
 * refused with the fault named, segment by segment in a large payload; two sealers never share a key,
 * and a sealer never reuses a sequence.
 */
class FrameOpenerTest {
    static final ClusterSecret SECRET = ClusterSecret.of("the cluster's shared secret".getBytes(StandardCharsets.UTF_8));
    static final long RECEIVER = 0x5EC0DE;
    static final String CHANNEL = "aeron:udp?endpoint=127.0.0.1:40123";
    static final int STREAM = 11;
    private static final byte[] ROWS = "eight rows of lineitem, column by column".getBytes(StandardCharsets.UTF_8);

    private final FrameCipher cipher = new FrameCipher();

    /** Seals a DATA frame of {@code payload} from CN 1 into {@code frame} at 0, returning its length. */
    static int seal(final FrameCipher cipher, final FrameSealer sealer, final MutableDirectBuffer frame,
            final DirectBuffer payload, final int length) {
        FrameHeader.encode(frame, 0, 42, 2, 1, 3, FrameKind.DATA, length, sealer.keyId(), sealer.nextSequence(),
                FrameHeader.FLAG_SEALED);
        cipher.seal(sealer.key(), frame, 0, payload, 0, length, frame, FrameHeader.LENGTH);
        return FrameHeader.LENGTH + (int) FrameCipher.sealedLength(length);
    }

    private int seal(final FrameSealer sealer, final MutableDirectBuffer frame) {
        return seal(cipher, sealer, frame, new UnsafeBuffer(ROWS), ROWS.length);
    }

    private static FrameOpener receiver() {
        return new FrameOpener(SECRET, RECEIVER, CHANNEL, STREAM);
    }

    private static FrameSealer member() {
        return FrameSealer.of(SECRET, RECEIVER, CHANNEL, STREAM);
    }

    private static String payloadOf(final FrameOpener opener, final int length) {
        return opener.plaintext().getStringWithoutLengthUtf8(0, length);
    }

    @Test
    void aFrameSealedForThisReceiverOpensToItsPayloadWhateverMemoryItLiesIn() {
        final FrameSealer sealer = member();
        final FrameOpener opener = receiver();
        final ByteBuffer raw = ByteBuffer.allocateDirect(1024);
        final List<MutableDirectBuffer> memories = List.of(new UnsafeBuffer(new byte[1024]),
                new UnsafeBuffer(ByteBuffer.allocateDirect(1024)), new UnsafeBuffer(BufferUtil.address(raw), 1024),
                new UnsafeBuffer(new byte[1100], 50, 1024));
        for (final MutableDirectBuffer memory : memories) {
            final MutableDirectBuffer payload = new UnsafeBuffer(ByteBuffer.allocateDirect(ROWS.length));
            payload.putBytes(0, ROWS);
            final int length = seal(cipher, sealer, memory, payload, ROWS.length);

            assertThat(opener.open(memory, 0, length)).as("opening from %s", memory).isNull();
            assertThat(payloadOf(opener, ROWS.length)).isEqualTo(new String(ROWS, StandardCharsets.UTF_8));
            final byte[] onTheWire = new byte[ROWS.length];
            memory.getBytes(FrameHeader.LENGTH, onTheWire);
            assertThat(onTheWire).as("the payload travels encrypted").isNotEqualTo(ROWS);
        }
        java.lang.ref.Reference.reachabilityFence(raw);
        final UnsafeBuffer empty = new UnsafeBuffer(new byte[FrameHeader.LENGTH + FrameCipher.TAG_LENGTH]);
        FrameHeader.encode(empty, 0, 42, 2, 1, 3, FrameKind.EOS, 0, sealer.keyId(), sealer.nextSequence(),
                FrameHeader.FLAG_SEALED);
        cipher.seal(sealer.key(), empty, 0, null, 0, 0, empty, FrameHeader.LENGTH);
        assertThat(opener.open(empty, 0, empty.capacity())).as("an empty payload, tag only").isNull();
    }

    @Test
    void changingAnyByteOfHeaderPayloadOrTagIsRefusedAndTheFrameStillOpensAfter() {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[256]);
        final int length = seal(member(), frame);
        final FrameOpener opener = receiver();
        final List<String> refusals = new ArrayList<>();
        for (int at = 0; at < length; at++) {
            for (final int flip : new int[] {0x01, 0x80}) {
                final UnsafeBuffer altered = new UnsafeBuffer(Arrays.copyOf(frame.byteArray(), length));
                altered.putByte(at, (byte) (altered.getByte(at) ^ flip));
                final String refusal = opener.open(altered, 0, length);
                assertThat(refusal).as("byte %d changed by 0x%x", at, flip).isNotNull();
                refusals.add(refusal);
            }
        }
        // A changed flag says "not sealed", a changed payload length no longer fits the message: refused as well.
        assertThat(refusals).allMatch(r -> r.startsWith("tag does not match: ") || r.startsWith("not sealed: ")
                || r.startsWith("not a frame: "));
        assertThat(refusals).filteredOn(r -> r.startsWith("tag does not match: ")).hasSizeGreaterThan(2 * length - 20);
        assertThat(opener.open(frame, 0, length)).as("the frame as sealed, after every altered copy").isNull();
        assertThat(payloadOf(opener, ROWS.length)).isEqualTo(new String(ROWS, StandardCharsets.UTF_8));
    }

    @Test
    void aPayloadOfManySegmentsOpensWholeAndNoSegmentCanBeChangedMovedOrDropped() {
        final int length = 2 * FrameCipher.SEGMENT_LENGTH + 100;
        final UnsafeBuffer payload = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        for (int i = 0; i < length; i++) {
            payload.putByte(i, (byte) (i * 7));
        }
        final int frameLength = FrameHeader.LENGTH + length + 3 * FrameCipher.TAG_LENGTH;
        assertThat(FrameHeader.LENGTH + FrameCipher.sealedLength(length)).isEqualTo(frameLength);
        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(frameLength));
        assertThat(seal(cipher, member(), frame, payload, length)).isEqualTo(frameLength);
        final FrameOpener opener = receiver();

        final int segmentAndTag = FrameCipher.SEGMENT_LENGTH + FrameCipher.TAG_LENGTH;
        final int[] changedAt = {FrameHeader.LENGTH, FrameHeader.LENGTH + FrameCipher.SEGMENT_LENGTH,
            FrameHeader.LENGTH + segmentAndTag + 5, FrameHeader.LENGTH + 2 * segmentAndTag - 1,
            FrameHeader.LENGTH + 2 * segmentAndTag + 99, frameLength - 1};
        for (final int at : changedAt) {
            final UnsafeBuffer altered = copy(frame, frameLength);
            altered.putByte(at, (byte) (altered.getByte(at) ^ 0x10));
            assertThat(opener.open(altered, 0, frameLength)).as("byte %d changed", at).startsWith("tag does not match");
        }
        final UnsafeBuffer swapped = copy(frame, frameLength);
        swapped.putBytes(FrameHeader.LENGTH, frame, FrameHeader.LENGTH + segmentAndTag, segmentAndTag);
        swapped.putBytes(FrameHeader.LENGTH + segmentAndTag, frame, FrameHeader.LENGTH, segmentAndTag);
        assertThat(opener.open(swapped, 0, frameLength)).as("segments 0 and 1 swapped").startsWith("tag does not match");
        assertThat(opener.open(frame, 0, frameLength - 100 - FrameCipher.TAG_LENGTH)).as("the last segment dropped")
                .startsWith("not a frame:");

        assertThat(opener.open(frame, 0, frameLength)).isNull();
        for (int i = 0; i < length; i++) {
            assertThat(opener.plaintext().getByte(i)).as("payload byte %d", i).isEqualTo((byte) (i * 7));
        }
    }

    @Property(tries = 500)
    void theLargestPayloadThatFitsFitsAndOneByteMoreDoesNot(@ForAll @IntRange(min = 16, max = 1 << 24) final int room) {
        final int max = FrameCipher.maxPayloadLength(room);
        assertThat(FrameCipher.sealedLength(max)).isLessThanOrEqualTo(room);
        assertThat(FrameCipher.sealedLength(max + 1L)).isGreaterThan(room);
    }

    @Test
    void segmentsAreFullUpTo64KiBAndAnEmptyPayloadStillHasATag() {
        assertThat(FrameCipher.sealedLength(0)).isEqualTo(FrameCipher.TAG_LENGTH);
        assertThat(FrameCipher.sealedLength(FrameCipher.SEGMENT_LENGTH)).isEqualTo(65536 + 16);
        assertThat(FrameCipher.sealedLength(FrameCipher.SEGMENT_LENGTH + 1)).isEqualTo(65537 + 32);
        assertThat(FrameCipher.maxPayloadLength(15)).isZero();
    }

    private static UnsafeBuffer copy(final DirectBuffer frame, final int length) {
        final UnsafeBuffer copy = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        copy.putBytes(0, frame, 0, length);
        return copy;
    }

    @Test
    void aFrameAlteredAfterItsSenderIsKnownIsNamedAltered() {
        final FrameSealer sealer = member();
        final FrameOpener opener = receiver();
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[256]);
        assertThat(opener.open(frame, 0, seal(sealer, frame))).isNull();
        final int length = seal(sealer, frame);
        frame.putByte(FrameHeader.LENGTH + 3, (byte) (frame.getByte(FrameHeader.LENGTH + 3) ^ 4));

        assertThat(opener.open(frame, 0, length)).startsWith("tag does not match: frame 2 under key "
                + Long.toHexString(sealer.keyId())).endsWith("known here from CN 1, was altered on the way");
    }

    @Test
    void aFrameSentAgainIsRefusedAsAReplayWhileFramesOutOfOrderOpen() {
        final FrameSealer sealer = member();
        final List<UnsafeBuffer> frames = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            final UnsafeBuffer frame = new UnsafeBuffer(new byte[256]);
            seal(sealer, frame);
            frames.add(frame);
        }
        final int length = FrameHeader.LENGTH + ROWS.length + FrameCipher.TAG_LENGTH;
        final FrameOpener opener = receiver();
        assertThat(opener.open(frames.get(0), 0, length)).isNull();
        assertThat(opener.open(frames.get(2), 0, length)).isNull();
        assertThat(opener.open(frames.get(1), 0, length)).as("frame 2 after frame 3").isNull();

        assertThat(opener.open(frames.get(1), 0, length)).isEqualTo("replay: frame 2 under key "
                + Long.toHexString(sealer.keyId()) + " of CN 1 came before");
        assertThat(opener.open(frames.get(0), 0, length)).startsWith("replay: frame 1 under key");
    }

    @Test
    void aFrameSealedUnderAnyOtherKeyIsRefused() {
        final FrameSealer[] strangers = {
            FrameSealer.of(ClusterSecret.of("another cluster's secret".getBytes(StandardCharsets.UTF_8)), RECEIVER,
                    CHANNEL, STREAM),
            FrameSealer.of(SECRET, RECEIVER + 1, CHANNEL, STREAM),
            FrameSealer.of(SECRET, RECEIVER, CHANNEL, STREAM + 1),
            FrameSealer.of(SECRET, RECEIVER, "aeron:udp?endpoint=127.0.0.1:40124", STREAM),
        };
        final FrameOpener opener = receiver();
        for (final FrameSealer stranger : strangers) {
            final UnsafeBuffer frame = new UnsafeBuffer(new byte[256]);
            final int length = seal(stranger, frame);
            assertThat(opener.open(frame, 0, length)).startsWith("tag does not match: frame 1 under key "
                    + Long.toHexString(stranger.keyId()) + ", claiming to come from CN 1, was not sealed for this"
                    + " receiver");
        }
        final UnsafeBuffer clear = new UnsafeBuffer(new byte[256]);
        FrameHeader.encode(clear, 0, 42, 2, 1, 3, FrameKind.DATA, ROWS.length, 7, 1);
        clear.putBytes(FrameHeader.LENGTH, ROWS);
        assertThat(opener.open(clear, 0, FrameHeader.LENGTH + ROWS.length)).startsWith("not sealed: a frame in clear"
                + " text, claiming to come from CN 1").contains("--secret-file");
    }

    @Test
    void twoSealersForOneReceiverNeverShareAKeySoTheirEqualSequencesAreDifferentNonceKeyPairs() {
        final FrameSealer one = member();
        final FrameSealer other = member();
        assertThat(one.keyId()).isNotEqualTo(other.keyId());
        assertThat(one.key().getEncoded()).isNotEqualTo(other.key().getEncoded()).hasSize(FrameKeys.KEY_LENGTH);
        final UnsafeBuffer first = new UnsafeBuffer(new byte[256]);
        final UnsafeBuffer second = new UnsafeBuffer(new byte[256]);
        final int length = seal(one, first);
        seal(other, second);
        assertThat(first.getLong(FrameHeader.SEQUENCE_OFFSET)).isEqualTo(second.getLong(FrameHeader.SEQUENCE_OFFSET));
        assertThat(Arrays.copyOfRange(first.byteArray(), FrameHeader.LENGTH, length))
                .isNotEqualTo(Arrays.copyOfRange(second.byteArray(), FrameHeader.LENGTH, length));
        final FrameOpener opener = receiver();
        assertThat(opener.open(first, 0, length)).isNull();
        assertThat(opener.open(second, 0, length)).isNull();
    }

    @Test
    void theSequenceNeverWrapsSoNoNonceRepeats() {
        final FrameSealer sealer = member().continuingAfter(Long.MAX_VALUE - 1);
        assertThat(sealer.nextSequence()).isEqualTo(Long.MAX_VALUE);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(sealer::nextSequence).isInstanceOf(TransportException.class)
                    .hasMessageContaining("used every sequence number").hasMessageContaining("a new sealer draws a new"
                            + " key");
        }
    }
}
