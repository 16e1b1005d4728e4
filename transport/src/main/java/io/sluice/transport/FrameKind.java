package io.sluice.transport;

/**
 * What a frame carries: data for a bucket, the end of a sender's stream, a sender's error, a sign
 * that a sender is alive, or credit a receiver grants back to its senders.
 */
public enum FrameKind {
    /** Payload bytes for the target bucket. */
    DATA((byte) 1),
    /** End of stream: the sender has no more data for the target bucket; the payload may be empty. */
    EOS((byte) 2),
    /** The sender failed; the payload is a UTF-8 message. */
    ERROR((byte) 3),
    /**
     * The sender is alive but has nothing for the target bucket now (it may be waiting on another
     * receiver); carries no data, and the payload may be empty.
     */
    HEARTBEAT((byte) 4),
    /**
     * Sent back by a receiver to a sender's CN: the target bucket consumed batches, so the sender may
     * send that many more DATA frames to it; the payload is the count (a negative count: the bucket
     * wants nothing more, send without waiting).
     */
    CREDIT((byte) 5);

    private static final FrameKind[] BY_CODE = {null, DATA, EOS, ERROR, HEARTBEAT, CREDIT};

    private final byte code;

    FrameKind(final byte code) {
        this.code = code;
    }

    /** The code written on the wire. */
    public byte code() {
        return code;
    }

    /**
     * The kind with this wire code.
     *
     * @return the kind, or null when no kind has this code
     */
    public static FrameKind fromCode(final int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
