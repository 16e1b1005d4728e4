package io.sluice.dispatch.control;

import org.roaringbitmap.RoaringBitmap;

/**
 * The blocks of one table a CN's block cache holds: a CN reports its caches in {@link ControlMessage.Finished}
 * (index: its own), and the coordinator ships every CN's latest report in each {@link ControlMessage.Prepare}
 * (index: that CN's in the query), so that scans no colocation pins read each block where it is cached.
 *
 * @param index  the CN's index in the query
 * @param table  the table's name
 * @param blocks the cached blocks of the version of the table the CN reads
 */
public record CachedBlocks(int index, String table, RoaringBitmap blocks) {
    public CachedBlocks {
        if (index < 0 || table == null || blocks == null) {
            throw new IllegalArgumentException("cached blocks need a CN index of 0 or more, a table and a bitmap: got "
                    + index + ", " + table + ", " + blocks);
        }
    }

    /** The same blocks as CN {@code cnIndex}'s in a query. */
    public CachedBlocks at(final int cnIndex) {
        return new CachedBlocks(cnIndex, table, blocks);
    }
}
