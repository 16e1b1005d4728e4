package io.sluice.format;

/**
 * A block (in a file or a frame) failed verification: bad magic or version, truncation, a checksum
 * mismatch or an inconsistent layout. The message names the source, the block and what is wrong.
 */
public final class CorruptBlockException extends StorageException {
    /** The file or stream the block came from. */
    private final String source;
    /** The block's index in its table (or frame sequence). */
    private final long block;

    /**
     * A block that failed verification; the message adds that the data must be regenerated.
     *
     * @param source  the file or stream the block came from
     * @param block   the block's index in its table (or frame sequence)
     * @param problem what is wrong, e.g. {@code "header checksum mismatch"}
     */
    public CorruptBlockException(final String source, final long block, final String problem) {
        super("corrupt block " + block + " in " + source + ": " + problem
                + " (the data is damaged; regenerate or re-import the table)");
        this.source = source;
        this.block = block;
    }

    /**
     * The file or stream the block came from.
     *
     * @return the source as given when the block was read
     */
    public String source() {
        return source;
    }

    /**
     * The block's index in its table (or frame sequence).
     *
     * @return the index, from 0
     */
    public long block() {
        return block;
    }
}
