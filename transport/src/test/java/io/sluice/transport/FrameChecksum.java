package io.sluice.transport;

import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;

/** Running CRC32C over every frame's header fields and payload, in arrival order; shared by both processes. */
final class FrameChecksum implements FrameHandler {
    private final CRC32C crc = new CRC32C();
    private final byte[] scratch;
    private long frames;

    FrameChecksum(final int maxPayload) {
        this.scratch = new byte[Math.max(maxPayload, 32)];
    }

    @Override
    public void onFrame(final long queryId, final int exchangeId, final int senderCn, final int bucket,
            final FrameKind kind, final DirectBuffer buffer, final int offset, final int length) {
        final java.nio.ByteBuffer fields = java.nio.ByteBuffer.wrap(scratch, 0, 25);
        fields.putLong(queryId).putInt(exchangeId).putInt(senderCn).putInt(bucket).put(kind.code()).putInt(length);
        crc.update(scratch, 0, 25);
        if (length > 0) {
            buffer.getBytes(offset, scratch, 0, length);
            crc.update(scratch, 0, length);
        }
        frames++;
    }

    long frames() {
        return frames;
    }

    long value() {
        return crc.getValue();
    }
}
