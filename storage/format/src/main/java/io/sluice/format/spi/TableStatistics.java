package io.sluice.format.spi;

import io.sluice.format.Block;

/**
 * Statistics a layer above storage gathers while a table is written: it sees every block as it goes to
 * disk and, once the last one has, gives the bytes the writer stores in the new version's
 * statistics file before the table becomes visible, so a table and its statistics appear together.
 */
public interface TableStatistics {
    /**
     * Sees a block the writer has just written.
     *
     * @param block the block; its vectors are not to be kept past the call
     */
    void accept(Block block);

    /**
     * Ends the gathering.
     *
     * @return the statistics of every block accepted, as the bytes of the table's statistics file
     */
    byte[] finish();
}
