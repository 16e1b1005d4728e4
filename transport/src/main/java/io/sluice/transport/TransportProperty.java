package io.sluice.transport;

import static io.sluice.transport.PropertyValues.duration;
import static io.sluice.transport.PropertyValues.size;

/**
 * The {@code sluice.transport.*} system properties {@link TransportContext} reads, each with its default
 * and meaning: the list the generated property reference (docs/reference/properties.md) is made from.
 */
public enum TransportProperty {
    DIR(TransportContext.DIR_PROP_NAME, "/dev/shm on Linux, else java.io.tmpdir",
            "Folder under which each media driver makes its own directory (removed when the driver closes)."),
    THREADING_MODE(TransportContext.THREADING_MODE_PROP_NAME, "shared",
            "Media driver threading mode: shared (one thread, for small machines), shared_network or dedicated."),
    IDLE_STRATEGY(TransportContext.IDLE_STRATEGY_PROP_NAME, "backoff",
            "How the driver's threads and waiting senders idle: backoff, yielding or sleeping."),
    IDLE_QUIET_PARK(TransportContext.IDLE_QUIET_PARK_PROP_NAME, duration(TransportContext.IDLE_QUIET_PARK_DEFAULT_NS),
            "How long the driver, the Aeron client conductor and the control loop of a quiet process park between"
                    + " looks for work (0: no longer than an active one's, 1 ms); a peer's doorbell ends the park."),
    IDLE_QUIET_AFTER(TransportContext.IDLE_QUIET_AFTER_PROP_NAME, duration(TransportContext.IDLE_QUIET_AFTER_DEFAULT_NS),
            "How long after its last work (a query, a client's request) a process counts as quiet."),
    TERM_LENGTH(TransportContext.TERM_LENGTH_PROP_NAME, size(TransportContext.TERM_LENGTH_DEFAULT),
            "Term length of every publication, UDP and IPC (a power of two); a message may be at most an eighth of it."),
    MTU_LENGTH(TransportContext.MTU_LENGTH_PROP_NAME, TransportContext.MTU_LENGTH_DEFAULT + " to loopback, "
            + TransportContext.MTU_LENGTH_NETWORK + " to other hosts",
            "UDP datagram length; the larger one only suits loopback and jumbo frames."),
    RECEIVER_WINDOW(TransportContext.RECEIVER_WINDOW_PROP_NAME, size(TransportContext.RECEIVER_WINDOW_DEFAULT),
            "UDP receiver window: how many bytes a sender may have in flight to one receiver."),
    SOCKET_RCVBUF(TransportContext.SOCKET_RCVBUF_PROP_NAME, size(TransportContext.SOCKET_BUFFER_DEFAULT),
            "SO_RCVBUF of UDP sockets; the kernel caps it at net.core.rmem_max."),
    SOCKET_SNDBUF(TransportContext.SOCKET_SNDBUF_PROP_NAME, size(TransportContext.SOCKET_BUFFER_DEFAULT),
            "SO_SNDBUF of UDP sockets; the kernel caps it at net.core.wmem_max."),
    CLIENT_LIVENESS_TIMEOUT(TransportContext.CLIENT_LIVENESS_TIMEOUT_PROP_NAME,
            duration(TransportContext.CLIENT_LIVENESS_TIMEOUT_DEFAULT_NS),
            "How long an Aeron client (and the driver, seen from a client) may be silent before it is dropped."),
    PUBLICATION_UNBLOCK_TIMEOUT(TransportContext.PUBLICATION_UNBLOCK_TIMEOUT_PROP_NAME,
            duration(TransportContext.PUBLICATION_UNBLOCK_TIMEOUT_DEFAULT_NS),
            "How long a publication blocked by a stalled sender waits before the driver unblocks it; above the"
                    + " client liveness timeout."),
    CONNECT_TIMEOUT(TransportContext.CONNECT_TIMEOUT_PROP_NAME, duration(TransportContext.CONNECT_TIMEOUT_DEFAULT_NS),
            "How long a send waits for a subscriber to connect before it fails."),
    STALL_TIMEOUT(TransportContext.STALL_TIMEOUT_PROP_NAME, duration(TransportContext.STALL_TIMEOUT_DEFAULT_NS),
            "How long a send waits on a connected receiver that consumes nothing before it fails.");

    private final String key;
    private final String defaultValue;
    private final String meaning;

    TransportProperty(final String key, final String defaultValue, final String meaning) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    /** The system property's name. */
    public String key() {
        return key;
    }

    /** The value used when the property is not set, written as one would set it. */
    public String defaultValue() {
        return defaultValue;
    }

    /** What the property sets. */
    public String meaning() {
        return meaning;
    }
}
