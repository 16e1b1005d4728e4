package io.sluice.format;

/** A storage operation failed: a missing table, an unreadable directory, a write that could not finish. */
public class StorageException extends RuntimeException {
    /**
     * A failure described by its message.
     *
     * @param message what failed and on what (table, file, block), and what to do about it
     */
    public StorageException(final String message) {
        super(message);
    }

    /**
     * A failure caused by another exception, usually an I/O error.
     *
     * @param message what failed and on what (table, file, block), and what to do about it
     * @param cause   the exception that made it fail
     */
    public StorageException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
