package io.sluice.engine.wire;

/**
 * Encoded bytes could not be decoded: truncated, too long, or holding a value that is not allowed
 * where it stands. The message names the field being read (a path such as
 * {@code plan.join.probe.scan.columns[2]}), the byte offset from the start of the message and what
 * was wrong; it is the only exception a {@link WireReader}, or a decoder built on one, throws for
 * bad input.
 */
public final class WireFormatException extends RuntimeException {
    private final String field;
    private final int offset;

    /**
     * @param field   the field being read
     * @param offset  its byte offset from the start of the message
     * @param length  the length of the message in bytes
     * @param problem what was wrong, and what to do about it where that is known
     */
    public WireFormatException(final String field, final int offset, final int length, final String problem) {
        this(field, offset, length, problem, null);
    }

    /** As {@link #WireFormatException(String, int, int, String)}, with the error that revealed the problem. */
    public WireFormatException(final String field, final int offset, final int length, final String problem,
                               final Throwable cause) {
        super(field + " at byte " + offset + " of " + length + ": " + problem, cause);
        this.field = field;
        this.offset = offset;
    }

    /** The field being read when decoding failed. */
    public String field() {
        return field;
    }

    /** The field's byte offset from the start of the message. */
    public int offset() {
        return offset;
    }
}
