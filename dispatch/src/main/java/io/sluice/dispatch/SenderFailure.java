package io.sluice.dispatch;

/**
 * A sender's failure: queued to each of its local receivers, or routed from a remote one's ERROR
 * frame, whose payload carries only the message ({@link #UNKNOWN_PIPELINE}).
 */
record SenderFailure(int senderCn, int senderPipeline, String message) {
    /** The pipeline of a failure relayed by an ERROR frame, which names it only in its message. */
    static final int UNKNOWN_PIPELINE = -1;
}
