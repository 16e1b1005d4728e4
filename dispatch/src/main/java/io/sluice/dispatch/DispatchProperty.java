package io.sluice.dispatch;

import static io.sluice.transport.PropertyValues.duration;
import static io.sluice.transport.PropertyValues.size;

/**
 * The {@code sluice.dispatch.*} system properties {@link DispatchContext} reads, each with its default
 * and meaning: the list the generated property reference (docs/reference/properties.md) is made from.
 */
public enum DispatchProperty {
    QUEUE_CAPACITY(DispatchContext.QUEUE_CAPACITY_PROP_NAME, Integer.toString(DispatchContext.QUEUE_CAPACITY_DEFAULT),
            "Batches a local destination's queue holds before its senders wait (back pressure); at least 2."),
    SENDER_TIMEOUT(DispatchContext.SENDER_TIMEOUT_PROP_NAME, duration(DispatchContext.SENDER_TIMEOUT_DEFAULT_NS),
            "How long a receiver waits without hearing from its senders (a batch, an end-of-stream or a heartbeat)"
                    + " before it fails naming the silent CNs."),
    HEARTBEAT_INTERVAL(DispatchContext.HEARTBEAT_INTERVAL_PROP_NAME,
            duration(DispatchContext.HEARTBEAT_INTERVAL_DEFAULT_NS),
            "How often a sender busy elsewhere or waiting tells its other receivers it is alive; below the sender"
                    + " timeout."),
    DISCONNECT_TIMEOUT(DispatchContext.DISCONNECT_TIMEOUT_PROP_NAME,
            duration(DispatchContext.DISCONNECT_TIMEOUT_DEFAULT_NS),
            "How long a sender keeps retrying a CN whose stream was connected and no longer is before it fails."),
    ROUTE_RETENTION(DispatchContext.ROUTE_RETENTION_PROP_NAME, duration(DispatchContext.ROUTE_RETENTION_DEFAULT_NS),
            "How long a CN keeps the frames of a destination whose source has not opened yet, and remembers a"
                    + " closed destination so that late frames for it are dropped."),
    CREDIT_WINDOW(DispatchContext.CREDIT_WINDOW_PROP_NAME, Integer.toString(DispatchContext.CREDIT_WINDOW_DEFAULT),
            "Batches each sending CN may have in flight to one remote destination before the destination grants"
                    + " credit back."),
    PENDING_BYTES(DispatchContext.PENDING_BYTES_PROP_NAME, size(DispatchContext.PENDING_BYTES_DEFAULT),
            "Bytes of frames a CN keeps, over all of them, for destinations whose source has not opened yet;"
                    + " beyond it such frames are dropped and counted."),
    FRAGMENT_LIMIT(DispatchContext.FRAGMENT_LIMIT_PROP_NAME, Integer.toString(DispatchContext.FRAGMENT_LIMIT_DEFAULT),
            "Aeron fragments a CN reads from its stream per poll."),
    SEND_STORED(DispatchContext.SEND_STORED_PROP_NAME, "true",
            "Whether a batch that is exactly a stored block's rows goes to remote CNs as the block's stored bytes"
                    + " (true) or is encoded again like any batch (false)."),
    IDLE_STRATEGY(DispatchContext.IDLE_STRATEGY_PROP_NAME, "backoff",
            "How senders wait on a full queue and receivers on an empty one: backoff, yielding or sleeping.");

    private final String key;
    private final String defaultValue;
    private final String meaning;

    DispatchProperty(final String key, final String defaultValue, final String meaning) {
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
