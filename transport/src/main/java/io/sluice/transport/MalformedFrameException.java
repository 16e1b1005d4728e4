package io.sluice.transport;

/** A received message that is not a valid frame: wrong magic or version, unknown kind, length mismatch. */
public final class MalformedFrameException extends TransportException {
    private static final long serialVersionUID = 1L;

    public MalformedFrameException(final String message) {
        super(message);
    }

    public MalformedFrameException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
