package io.sluice.engine.spill;

/**
 * A spill file could not be written or read back as written: the message names the file, the frame and
 * what was wrong. The query that spilled fails; its files are removed with it.
 */
public final class SpillFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SpillFileException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
