package io.sluice.dispatch;

/**
 * A sender's end-of-stream: queued after its last batch by a local sender (one instance per sender,
 * made once), or routed from a remote one's EOS frame, which says how many DATA frames that sender
 * sent to the destination (so that one lost on the way fails the query instead of its rows).
 *
 * @param dataFrames DATA frames the sender sent to this destination; {@link #LOCAL} for a local sender
 */
record EndOfStream(int senderCn, int senderPipeline, long dataFrames) {
    /** The frame count of a local sender's end-of-stream, which sends no frames. */
    static final long LOCAL = -1;
}
