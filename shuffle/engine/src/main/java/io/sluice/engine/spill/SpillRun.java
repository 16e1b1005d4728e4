package io.sluice.engine.spill;

import java.nio.file.Path;

/**
 * A finished spill file: where it is and what it holds. {@link #open()} reads its batches back in the
 * order they were written.
 *
 * @param file    the file
 * @param batches batches in it
 * @param rows    rows in it
 * @param bytes   its length in bytes
 * @param valueBytes the bytes its values take once read back, as a query's memory counts a batch's (a
 *                   column's width per row, a string's bytes and offset): what loading it asks of the budget
 */
public record SpillRun(Path file, int batches, long rows, long bytes, long valueBytes) {
    /** A reader from the first batch. */
    public SpillReader open() {
        return new SpillReader(this);
    }
}
