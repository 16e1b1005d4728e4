package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class FrameHeaderTest {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final FrameHeader header = new FrameHeader();

    @Test
    void fieldsRoundTripAtAnOffset() {
        FrameHeader.encode(buffer, 8, 0x1234_5678_9ABCL, 7, 3, 41, FrameKind.ERROR, 100);

        header.wrap(buffer, 8, FrameHeader.LENGTH + 100);

        assertThat(header.queryId()).isEqualTo(0x1234_5678_9ABCL);
        assertThat(header.exchangeId()).isEqualTo(7);
        assertThat(header.senderCn()).isEqualTo(3);
        assertThat(header.bucket()).isEqualTo(41);
        assertThat(header.kind()).isEqualTo(FrameKind.ERROR);
        assertThat(header.payloadLength()).isEqualTo(100);
        assertThat(header.payloadOffset()).isEqualTo(8 + FrameHeader.LENGTH);
    }

    @Test
    void magicReadsSlcfOnTheWire() {
        FrameHeader.encode(buffer, 0, 1, 2, 3, 4, FrameKind.DATA, 0);

        assertThat(new String(buffer.byteArray(), 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("SLCF");
    }

    @Test
    void badMagicIsNamed() {
        FrameHeader.encode(buffer, 0, 1, 2, 3, 4, FrameKind.DATA, 0);
        buffer.putInt(FrameHeader.MAGIC_OFFSET, 0xCAFEBABE, ByteOrder.LITTLE_ENDIAN);

        assertThatThrownBy(() -> header.wrap(buffer, 0, FrameHeader.LENGTH))
                .isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("bad magic 0xcafebabe");
    }

    @Test
    void truncatedFrameFailsBeforeReadingTheHeader() {
        final UnsafeBuffer tiny = new UnsafeBuffer(new byte[10]);

        assertThatThrownBy(() -> header.wrap(tiny, 0, 10))
                .isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("truncated frame: 10 bytes")
                .hasMessageContaining("needs " + FrameHeader.LENGTH);
    }

    @Test
    void payloadLengthMustMatchTheMessage() {
        FrameHeader.encode(buffer, 0, 1, 2, 3, 4, FrameKind.DATA, 50);

        assertThatThrownBy(() -> header.wrap(buffer, 0, FrameHeader.LENGTH + 40))
                .isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("payload length 50")
                .hasMessageContaining("40 bytes after the " + FrameHeader.LENGTH + "-byte header");
    }

    @Test
    void negativePayloadLengthIsRejected() {
        FrameHeader.encode(buffer, 0, 1, 2, 3, 4, FrameKind.DATA, -1);

        assertThatThrownBy(() -> header.wrap(buffer, 0, FrameHeader.LENGTH))
                .isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("payload length -1");
    }

    @Test
    void unknownVersionAndKindAreNamed() {
        FrameHeader.encode(buffer, 0, 1, 2, 3, 4, FrameKind.DATA, 0);
        buffer.putShort(FrameHeader.VERSION_OFFSET, (short) 9, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> header.wrap(buffer, 0, FrameHeader.LENGTH))
                .isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("frame version 9");

        FrameHeader.encode(buffer, 0, 1, 2, 3, 4, FrameKind.DATA, 0);
        buffer.putByte(FrameHeader.KIND_OFFSET, (byte) 0);
        assertThatThrownBy(() -> header.wrap(buffer, 0, FrameHeader.LENGTH))
                .isInstanceOf(MalformedFrameException.class)
                .hasMessageContaining("unknown frame kind code 0");
    }

    @Test
    void kindsRoundTripThroughTheirCodes() {
        for (final FrameKind kind : FrameKind.values()) {
            assertThat(FrameKind.fromCode(kind.code())).isEqualTo(kind);
        }
        assertThat(new int[] {FrameKind.DATA.code(), FrameKind.EOS.code(), FrameKind.ERROR.code(),
                FrameKind.HEARTBEAT.code(), FrameKind.CREDIT.code()}).as("wire codes never change")
                .containsExactly(1, 2, 3, 4, 5);
        assertThat(FrameKind.fromCode(0)).isNull();
        assertThat(FrameKind.fromCode(4)).isEqualTo(FrameKind.HEARTBEAT);
        assertThat(FrameKind.fromCode(5)).isEqualTo(FrameKind.CREDIT);
        assertThat(FrameKind.fromCode(6)).isNull();
        assertThat(FrameKind.fromCode(-1)).isNull();
    }
}
