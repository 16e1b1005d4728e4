package io.sluice.dispatch;

/** A local sender's failure, queued to each of its receivers. */
record SenderFailure(int senderCn, int senderPipeline, String message) {
}
