package io.sluice.dispatch.control;

/**
 * Where a process receives one kind of message: an Aeron channel ({@code aeron:udp?endpoint=host:port}
 * between processes, {@code aeron:ipc} inside one) and a stream id in it.
 */
public record StreamAddress(String channel, int stream) {
    public StreamAddress {
        if (channel == null || !channel.startsWith("aeron:")) {
            throw new IllegalArgumentException("'" + channel + "' is not an Aeron channel: write aeron:udp?endpoint=HOST:PORT"
                    + " or aeron:ipc");
        }
    }

    @Override
    public String toString() {
        return channel + " stream " + stream;
    }
}
