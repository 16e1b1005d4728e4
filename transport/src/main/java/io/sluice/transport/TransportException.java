package io.sluice.transport;

/** A transport failure: a stream that cannot connect, a closed publication, a frame that cannot be sent. */
public class TransportException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TransportException(final String message) {
        super(message);
    }

    public TransportException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
