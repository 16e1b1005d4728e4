package io.sluice.format;

import org.agrona.MutableDirectBuffer;

/**
 * The stored bytes of some columns of one block, as they lie in its file: what a batch that holds
 * exactly that block's rows of those columns is sent as instead of being encoded again, because the
 * format is the same on disk and on the wire. {@link #copyTo} writes a block in the
 * {@link BlockLayout} of just those columns (see {@link BlockProjection}); a
 * {@link BlockDecoder} reads it as it reads a file, verifying every checksum.
 *
 * <p>Holds no mapping while it waits: an implementation reaches the stored bytes when it copies
 * them, so a batch that carries one may outlive the scan that read it.
 */
public interface StoredBlock {
    /**
     * Rows in the block.
     *
     * @return 0 to {@link Block#MAX_ROWS}
     */
    int rowCount();

    /**
     * Columns {@link #copyTo} writes, in the order of the batch that carries this.
     *
     * @return 1 or more
     */
    int columnCount();

    /**
     * Writes the stored columns as one block in the {@link BlockLayout}: the header and column
     * directory written for these columns, the zonemaps, column checksums and column data copied as
     * stored.
     *
     * @param target where to write; grown through {@link MutableDirectBuffer#checkLimit} when it is
     *               expandable, else it must have room for the block
     * @param offset where the block starts in {@code target}
     * @return the block's length in bytes
     * @throws StorageException when the stored bytes cannot be reached any more (a replaced table)
     */
    int copyTo(MutableDirectBuffer target, int offset);

    /**
     * The block, for messages: its table and index.
     *
     * @return e.g. {@code "block 3 of table 'lineitem'"}
     */
    String describe();
}
