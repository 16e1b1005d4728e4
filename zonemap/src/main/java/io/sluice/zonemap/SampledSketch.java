package io.sluice.zonemap;

import io.sluice.format.spi.BlockTable;

/**
 * A column's sketch from a bounded sample of its blocks, for a table that keeps no sketch (written before
 * sketches existed, or a foreign table whose engine hands in none): enough to find the keys above a share of a
 * bucket, not to cut quantiles or count distinct values, which a sample would bias.
 *
 * <p>Reads at most {@link #MAX_BLOCKS} blocks of the one column, spread evenly over the table, so a table
 * stored in some other key's order is sampled across it; on a table stored in this column's order a heavy key
 * fills whole blocks, which its zonemaps show as point masses ({@link HeavyKeys}).
 */
public final class SampledSketch {
    /** Most blocks read: 16 blocks of 8192 rows find a key of 1% within a few tenths of a point. */
    public static final int MAX_BLOCKS = 16;

    private SampledSketch() {
    }

    /**
     * Sketches a column from up to {@link #MAX_BLOCKS} of its table's blocks.
     *
     * @param table  the table
     * @param column the column's position in the table's schema
     * @return the sketch of the blocks read; its shares are of their rows
     */
    public static ColumnSketch of(final BlockTable table, final int column) {
        final ColumnSketch sketch = ColumnSketch.empty(table.schema().type(column).kind());
        final int blocks = table.blockCount();
        final int read = Math.min(blocks, MAX_BLOCKS);
        for (int i = 0; i < read; i++) {
            // Evenly spread: block i x blocks / read, the first and (nearly) the last among them.
            final int block = (int) ((long) i * blocks / read);
            sketch.update(table.readBlock(block, column).column(0));
        }
        return sketch;
    }
}
