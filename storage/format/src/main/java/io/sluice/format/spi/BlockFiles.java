package io.sluice.format.spi;

import io.sluice.format.ZoneMap;

/**
 * The files a table's blocks lie in, with bounds for whole files (a table format's manifests, such as
 * Iceberg's): pruning tests a file's zonemaps first and reads the zonemaps of the blocks of the files
 * it keeps only. A file's blocks are consecutive and the files follow each other in block order.
 */
public interface BlockFiles {
    /**
     * Number of files.
     *
     * @return the file count, 0 for a table without blocks
     */
    int fileCount();

    /**
     * The first block of a file; the file's blocks run up to the first block of the next one.
     *
     * @param file the file's number, 0 to {@link #fileCount()}; {@code fileCount()} gives the table's block count
     * @return the number of the file's first block
     */
    int firstBlock(int file);

    /**
     * The zonemap of a column over a whole file. It must bound every block of the file (wider only costs
     * pruning); its row count is the file's rows, capped at {@link Integer#MAX_VALUE}.
     *
     * @param file   the file's number, 0 to {@link #fileCount()} - 1
     * @param column the column's position in the table's schema
     * @return the file's zonemap of that column
     */
    ZoneMap zoneMap(int file, int column);
}
