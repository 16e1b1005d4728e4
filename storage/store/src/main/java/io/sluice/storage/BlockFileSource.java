package io.sluice.storage;

import java.nio.file.Path;

/**
 * Where a store's tables open their block files: {@link #LOCAL}, in the table's own version directory, or from a
 * copy on local disk that a store on object storage fetches into its block cache. Either way the block is read
 * through the same memory-mapped {@link BlockFile}.
 */
@FunctionalInterface
public interface BlockFileSource {
    /** The block files of a store on local disk, in the version directory its manifest names. */
    BlockFileSource LOCAL = (table, block, verified) -> BlockFile.open(table.blockPath(block), block, verified);

    /**
     * Opens one block file of {@code table}, its header verified (see {@link BlockFile#open(java.nio.file.Path, long,
     * boolean[])}).
     *
     * @param verified one flag per column whose checksum has passed, kept by the table across opens
     */
    BlockFile open(Table table, int block, boolean[] verified);

    /**
     * Copies table {@code name} into the store directory {@code dir}, which lacks it, when the store behind this
     * source has it now (a table written after the store was opened), so a long-running process sees it as it
     * sees a new table of a local store; whether it did. The store on local disk is its directory: nothing to copy.
     */
    default boolean copyTable(final Path dir, final String name) {
        return false;
    }
}
