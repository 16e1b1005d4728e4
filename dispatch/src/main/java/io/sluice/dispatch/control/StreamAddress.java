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

    /** The host of a UDP channel's endpoint ({@code [::1]} style for IPv6), or "" for IPC. */
    public String host() {
        final String prefix = "aeron:udp?endpoint=";
        if (!channel.startsWith(prefix)) {
            return "";
        }
        final String rest = channel.substring(prefix.length());
        final int bar = rest.indexOf('|');
        final String endpoint = bar < 0 ? rest : rest.substring(0, bar);
        final int colon = endpoint.lastIndexOf(':');
        return colon < 0 ? endpoint : endpoint.substring(0, colon);
    }

    @Override
    public String toString() {
        return channel + " stream " + stream;
    }
}
