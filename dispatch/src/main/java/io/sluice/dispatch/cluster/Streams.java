package io.sluice.dispatch.cluster;

/**
 * The Aeron stream ids of a cluster process on its one UDP port: control messages, data-plane frames
 * (CNs only) and result rows (the coordinator only). Inside one process over {@code aeron:ipc} the
 * embedded cluster gives each CN streams of its own from {@link #IPC_CN_BASE}.
 */
final class Streams {
    /** Control messages: membership, heartbeats, query lifecycle, client requests and answers. */
    static final int CONTROL = 10;
    /** Data-plane frames between CNs. */
    static final int DATA = 11;
    /** Result rows from CN 0 to the coordinator. */
    static final int RESULTS = 12;
    /** Embedded CN slot k uses streams {@code IPC_CN_BASE + 2k} (control) and {@code + 1} (data). */
    static final int IPC_CN_BASE = 2_000;
    /** Embedded clients use streams from here. */
    static final int IPC_CLIENT_BASE = 3_000;

    private Streams() {
    }
}
