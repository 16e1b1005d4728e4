package io.sluice.dispatch.control;

/** A control message could not be sent, or a peer stopped answering; the message names the peer. */
public final class ControlLinkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ControlLinkException(final String message) {
        super(message);
    }
}
