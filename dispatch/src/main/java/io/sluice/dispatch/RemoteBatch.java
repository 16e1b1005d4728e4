package io.sluice.dispatch;

import io.sluice.shuffle.operator.Batch;

/**
 * A batch decoded from a remote sender's DATA frame, routed to a destination's inbox with the CN it
 * came from, so that the destination grants its credit back to that CN once it has consumed it.
 */
record RemoteBatch(int senderCn, Batch batch) {
}
