package io.sluice.dispatch;

/**
 * A sender's end-of-stream: queued after its last batch by a local sender (one instance per sender,
 * made once), or routed from a remote one's EOS frame.
 */
record EndOfStream(int senderCn, int senderPipeline) {
}
