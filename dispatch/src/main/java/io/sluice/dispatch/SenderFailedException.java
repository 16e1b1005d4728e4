package io.sluice.dispatch;

/**
 * A receiver heard that one of its senders failed (an ERROR frame, or the failure a local sender
 * queued): the cause arose on the sender's CN, and this failure follows from it.
 */
public final class SenderFailedException extends DispatchException {
    private static final long serialVersionUID = 1L;

    private final int senderCn;

    public SenderFailedException(final String message, final int senderCn) {
        super(message);
        this.senderCn = senderCn;
    }

    /** The CN whose sender failed. */
    public int senderCn() {
        return senderCn;
    }
}
