package io.sluice.dispatch;

import java.util.Arrays;

/**
 * The Aeron channel on which each CN receives: {@code aeron:ipc} for CNs sharing one media driver
 * in one process, {@code aeron:udp?endpoint=host:port} for CNs with drivers of their own. The same
 * dispatch code runs over either; streams within a channel are {@link Exchange#streamId}.
 */
public record Channels(String[] byCn) {
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

    public int cnCount() {
        return byCn.length;
    }

    @Override
    public String toString() {
        return Arrays.toString(byCn);
    }
}
