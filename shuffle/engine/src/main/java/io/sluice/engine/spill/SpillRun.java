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
 */
public record SpillRun(Path file, int batches, long rows, long bytes) {
    /** A reader from the first batch. */
    public SpillReader open() {
        return new SpillReader(this);
    }
}
