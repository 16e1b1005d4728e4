package io.sluice.dispatch;

import java.util.Arrays;

/**
 * Where each CN receives: one Aeron channel and stream per CN, which carries every frame sent to it,
 * of every query, exchange and bucket. The channel is {@code aeron:ipc} for CNs sharing one media
 * driver in one process, {@code aeron:udp?endpoint=host:port} for CNs with drivers of their own; the
 * stream is {@link #STREAM_ID_BASE} + CN, distinct per CN because IPC CNs share one channel. The same
 * dispatch code runs over either.
 */
public record Channels(String[] byCn) {
    /** Stream id of CN 0; CN k receives on {@code STREAM_ID_BASE + k}, clear of the ids the transport tests use. */
    public static final int STREAM_ID_BASE = 1_000;

    public Channels {
        byCn = byCn.clone();
    }

    /** {@code aeron:ipc} for every CN: only for CNs whose clients share one media driver. */
    public static Channels ipc(final int cnCount) {
        final String[] channels = new String[cnCount];
        Arrays.fill(channels, "aeron:ipc");
        return new Channels(channels);
    }

    /** CN {@code k} receives on {@code host:basePort + k}. */
    public static Channels udp(final String host, final int basePort, final int cnCount) {
        final String[] channels = new String[cnCount];
        for (int cn = 0; cn < cnCount; cn++) {
            channels[cn] = "aeron:udp?endpoint=" + host + ":" + (basePort + cn);
        }
        return new Channels(channels);
    }

    /** The channel CN {@code cn} receives on. */
    public String of(final int cn) {
        if (cn < 0 || cn >= byCn.length) {
            throw new IllegalArgumentException("CN " + cn + " has no channel: the cluster has CNs 0.."
                    + (byCn.length - 1));
        }
        return byCn[cn];
    }

    /** The stream CN {@code cn} receives on, in its channel. */
    public int streamOf(final int cn) {
        of(cn);
        return STREAM_ID_BASE + cn;
    }

    public int cnCount() {
        return byCn.length;
    }

    @Override
    public String toString() {
        return Arrays.toString(byCn);
    }
}
