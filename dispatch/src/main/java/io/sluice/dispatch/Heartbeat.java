package io.sluice.dispatch;

/** A remote sender's heartbeat, routed to a destination's inbox: alive, nothing to deliver now. */
record Heartbeat(int senderCn, int senderPipeline) {
}
