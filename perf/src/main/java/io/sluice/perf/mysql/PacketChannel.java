package io.sluice.perf.mysql;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The framing of the MySQL protocol over one socket: each packet is a 3-byte length, a sequence id and
 * the payload; a payload of 2^24 - 1 bytes or more is split and continues in the next packet. Packets
 * read must come in sequence and be no larger than {@code maxPacket} in all, else a
 * {@link ProtocolException}; the sequence restarts at 0 with each command.
 */
final class PacketChannel {
    /** The largest payload of one packet; a longer one continues in the next. */
    static final int MAX_CHUNK = 0xFFFFFF;

    private final InputStream in;
    private final OutputStream out;
    private final int maxPacket;
    private final byte[] header = new byte[4];
    private int sequence;

    PacketChannel(final InputStream in, final OutputStream out, final int maxPacket) {
        this.in = in;
        this.out = out;
        this.maxPacket = maxPacket;
    }

    /** A new command starts: the client's next packet has sequence id 0. */
    void resetSequence() {
        sequence = 0;
    }

    /**
     * Reads one whole packet (joining split ones).
     *
     * @return its payload; null when the client closed the connection before a packet began
     * @throws ProtocolException when it is out of sequence, too large or cut short
     */
    byte[] read() throws IOException {
        byte[] payload = null;
        int total = 0;
        while (true) {
            final int first = in.read();
            if (first < 0) {
                if (payload == null) {
                    return null;
                }
                throw new ProtocolException("the connection closed inside a split packet");
            }
            header[0] = (byte) first;
            readFully(header, 1, 3, "a packet header");
            final int length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
            final int seq = header[3] & 0xFF;
            if (seq != (sequence & 0xFF)) {
                throw new ProtocolException("packet sequence id " + seq + " where " + (sequence & 0xFF) + " was due");
            }
            sequence++;
            if ((long) total + length > maxPacket) {
                throw new ProtocolException("a packet of " + ((long) total + length) + " bytes, more than"
                        + " max_allowed_packet (" + maxPacket + ")");
            }
            payload = payload == null ? new byte[length] : Arrays.copyOf(payload, total + length);
            readFully(payload, total, length, "a packet of " + length + " bytes");
            total += length;
            if (length < MAX_CHUNK) {
                return payload;
            }
        }
    }

    private void readFully(final byte[] into, final int offset, final int count, final String what)
            throws IOException {
        int done = 0;
        while (done < count) {
            final int n = in.read(into, offset + done, count - done);
            if (n < 0) {
                throw new ProtocolException("the connection closed " + done + " bytes into " + what
                        + " (" + count + " due)");
            }
            done += n;
        }
    }

    /** Writes the writer's payload as one packet (split when it is that large); {@link #flush} sends it. */
    void write(final PacketWriter payload) throws IOException {
        write(payload.buffer(), payload.length());
    }

    void write(final byte[] payload, final int length) throws IOException {
        int offset = 0;
        while (true) {
            final int chunk = Math.min(MAX_CHUNK, length - offset);
            out.write(chunk);
            out.write(chunk >>> 8);
            out.write(chunk >>> 16);
            out.write(sequence++ & 0xFF);
            out.write(payload, offset, chunk);
            offset += chunk;
            if (chunk < MAX_CHUNK) {
                return;
            }
        }
    }

    void flush() throws IOException {
        out.flush();
    }

    /** Fails the read of a connection that ended cleanly where a packet was due. */
    static byte[] require(final byte[] packet, final String what) throws EOFException {
        if (packet == null) {
            throw new EOFException("the client closed the connection before " + what);
        }
        return packet;
    }
}
