package io.sluice.format;

/** A storage operation failed: a missing table, an unreadable directory, a write that could not finish. */
public class StorageException extends RuntimeException {
    public StorageException(final String message) {
        super(message);
    }

    public StorageException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
