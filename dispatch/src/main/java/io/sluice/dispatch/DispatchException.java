package io.sluice.dispatch;

/** A failed exchange: a sender's error relayed to a receiver, a protocol violation, a silent sender. */
public class DispatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DispatchException(final String message) {
        super(message);
    }

    public DispatchException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
