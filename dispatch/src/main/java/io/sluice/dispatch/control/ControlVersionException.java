package io.sluice.dispatch.control;

/**
 * A control message of another protocol version: the sender runs another Sluice build. Carries the
 * sender's reply address when the message has one, so that the receiver can tell it why it is
 * refused ({@link ControlMessage.Reject} decodes in every version).
 */
public final class ControlVersionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int version;
    private final transient StreamAddress replyTo;

    public ControlVersionException(final int version, final StreamAddress replyTo) {
        super("control protocol version " + version + ", this build speaks version " + ControlCodec.VERSION
                + ": run the same Sluice version on the coordinator, every CN and every client");
        this.version = version;
        this.replyTo = replyTo;
    }

    /** The version the sender speaks. */
    public int version() {
        return version;
    }

    /** Where the sender waits for an answer, or null. */
    public StreamAddress replyTo() {
        return replyTo;
    }
}
