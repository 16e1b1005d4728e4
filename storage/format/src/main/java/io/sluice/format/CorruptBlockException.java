package io.sluice.format;

/**
 * A block (in a file or a frame) failed verification: bad magic or version, truncation, a checksum
 * mismatch or an inconsistent layout. The message names the source, the block and what is wrong.
 */
public final class CorruptBlockException extends StorageException {
    private final String source;
    private final long block;

    public CorruptBlockException(final String source, final long block, final String problem) {
        super("corrupt block " + block + " in " + source + ": " + problem
                + " (the data is damaged; regenerate or re-import the table)");
        this.source = source;
        this.block = block;
    }

    /** The file or stream the block came from. */
    public String source() {
        return source;
    }

    /** The block's index in its table (or frame sequence). */
    public long block() {
        return block;
    }
}
