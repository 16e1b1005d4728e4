package io.sluice.dispatch;

/** A local sender's end-of-stream, queued after its last batch; one instance per sender, made once. */
record EndOfStream(int senderCn, int senderPipeline) {
}
