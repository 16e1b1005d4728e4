package io.sluice.dispatch;

import java.util.Arrays;

/**
 * Where each CN of one cluster view receives: one Aeron channel and stream per CN, which carries
 * every frame sent to it, of every query, exchange and bucket. The channel is {@code aeron:ipc} for
 * CNs sharing one media driver in one process, {@code aeron:udp?endpoint=host:port} for CNs with
 * drivers of their own; CNs that share a channel (IPC) are told apart by their streams. The same
 * dispatch code runs over either. A CN's index here is its position in the view (a query's CN
 * number), not anything the CN keeps from one query to the next. With a cluster secret the view also
 * holds each CN's incarnation (random per process start, from its registration), from which the keys
 * of the frames sent to it derive; 0 where unknown (a cluster without a secret).
 */
public record Channels(String[] byCn, int[] streams, long[] incarnations) {
    /** Stream id of CN 0 in {@link #ipc} and {@link #udp}; CN k receives on {@code STREAM_ID_BASE + k}. */
    public static final int STREAM_ID_BASE = 1_000;

    public Channels {
        if (byCn.length != streams.length || byCn.length != incarnations.length) {
            throw new IllegalArgumentException(byCn.length + " channels for " + streams.length + " streams and "
                    + incarnations.length + " incarnations");
        }
        if (byCn.length == 0) {
            throw new IllegalArgumentException("a cluster view needs at least one CN's channel");
        }
        byCn = byCn.clone();
        streams = streams.clone();
        incarnations = incarnations.clone();
    }

    /** Channels and streams of CNs whose incarnations are not known (a cluster without a secret). */
    public Channels(final String[] byCn, final int[] streams) {
        this(byCn, streams, new long[byCn.length]);
    }

    /** {@code aeron:ipc} for every CN, CN k on stream {@code STREAM_ID_BASE + k}: only for CNs sharing one driver. */
    public static Channels ipc(final int cnCount) {
        final String[] channels = new String[cnCount];
        Arrays.fill(channels, "aeron:ipc");
        return new Channels(channels, consecutiveStreams(cnCount));
    }

    /** CN {@code k} receives on {@code host:basePort + k}. */
    public static Channels udp(final String host, final int basePort, final int cnCount) {
        final String[] channels = new String[cnCount];
        for (int cn = 0; cn < cnCount; cn++) {
            channels[cn] = "aeron:udp?endpoint=" + host + ":" + (basePort + cn);
        }
        return new Channels(channels, consecutiveStreams(cnCount));
    }

    private static int[] consecutiveStreams(final int cnCount) {
        final int[] streams = new int[cnCount];
        for (int cn = 0; cn < cnCount; cn++) {
            streams[cn] = STREAM_ID_BASE + cn;
        }
        return streams;
    }

    /** The channel CN {@code cn} receives on. */
    public String of(final int cn) {
        check(cn);
        return byCn[cn];
    }

    /** The stream CN {@code cn} receives on, in its channel. */
    public int streamOf(final int cn) {
        check(cn);
        return streams[cn];
    }

    /** The incarnation of CN {@code cn}, from which the keys of frames sent to it derive; 0 when unknown. */
    public long incarnationOf(final int cn) {
        check(cn);
        return incarnations[cn];
    }

    /** The CN receiving on this channel and stream, or -1. */
    public int indexOf(final String channel, final int stream) {
        for (int cn = 0; cn < byCn.length; cn++) {
            if (streams[cn] == stream && byCn[cn].equals(channel)) {
                return cn;
            }
        }
        return -1;
    }

    private void check(final int cn) {
        if (cn < 0 || cn >= byCn.length) {
            throw new IllegalArgumentException("CN " + cn + " has no channel: the cluster has CNs 0.."
                    + (byCn.length - 1));
        }
    }

    public int cnCount() {
        return byCn.length;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof Channels c && Arrays.equals(byCn, c.byCn) && Arrays.equals(streams, c.streams)
                && Arrays.equals(incarnations, c.incarnations);
    }

    @Override
    public int hashCode() {
        return (Arrays.hashCode(byCn) * 31 + Arrays.hashCode(streams)) * 31 + Arrays.hashCode(incarnations);
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("[");
        for (int cn = 0; cn < byCn.length; cn++) {
            sb.append(cn == 0 ? "" : ", ").append(byCn[cn]).append(" stream ").append(streams[cn]);
        }
        return sb.append(']').toString();
    }
}
