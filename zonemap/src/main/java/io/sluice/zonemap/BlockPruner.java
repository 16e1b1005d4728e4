package io.sluice.zonemap;

import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockFiles;
import io.sluice.format.spi.BlockTable;
import java.util.Arrays;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.RoaringBitmapWriter;

/**
 * Finds the blocks that may hold a row matching a {@link Predicate}, from zonemaps alone. It is
 * conservative: a block it leaves out holds no matching row. A block whose rows are all null
 * matches nothing.
 *
 * <p>String zonemaps hold prefix keys, which keep order but merge strings that share their first
 * 8 bytes, so for strings the strict comparisons test non-strictly: {@code s < 'abc'} keeps a
 * block when {@code key(min) <= key('abc')}, since a string below {@code 'abc'} can share its
 * key. For the other kinds a key is the value and {@code <}, {@code <=}, {@code >}, {@code >=}
 * keep exactly the blocks that hold a match.
 */
public final class BlockPruner {
    private BlockPruner() {
    }

    /**
     * The blocks of a stored table that may match, from its zonemap index.
     *
     * @param predicate the filter, on one of the table's columns
     * @param table     the table whose zonemaps are read
     * @return the numbers of the blocks that may hold a matching row; empty when none can
     * @throws IllegalArgumentException when the table has no column of the predicate's name (the
     *                                  message lists the columns)
     */
    public static RoaringBitmap prune(final Predicate predicate, final BlockTable table) {
        final int column = table.schema().require(predicate.column());
        if (table.blockCount() == 0) {
            return new RoaringBitmap();
        }
        final TypeKind kind = table.schema().type(column).kind();
        final BlockFiles files = table.blockFiles();
        if (files == null) {
            return prune(predicate, kind, table.zoneMaps(column));
        }
        return pruneFilesFirst(predicate, kind, table, files, column);
    }

    /**
     * Prunes a table's files by their own zonemaps, then the blocks of the files kept by theirs: the zonemaps of
     * a ruled-out file's blocks are never read (a table may compute them, or read them from the file).
     */
    private static RoaringBitmap pruneFilesFirst(final Predicate predicate, final TypeKind kind, final BlockTable table,
                                                 final BlockFiles files, final int column) {
        final int fileCount = files.fileCount();
        if (fileCount == 0) {
            return new RoaringBitmap();
        }
        final ZoneMap[] fileMaps = new ZoneMap[fileCount];
        for (int f = 0; f < fileCount; f++) {
            fileMaps[f] = files.zoneMap(f, column);
        }
        final int[] keptFiles = prune(predicate, kind, fileMaps).toArray();
        int blocks = 0;
        for (final int f : keptFiles) {
            blocks += files.firstBlock(f + 1) - files.firstBlock(f);
        }
        final int[] blockOf = new int[blocks];
        final ZoneMap[] blockMaps = new ZoneMap[blocks];
        int i = 0;
        for (final int f : keptFiles) {
            for (int b = files.firstBlock(f); b < files.firstBlock(f + 1); b++) {
                blockOf[i] = b;
                blockMaps[i] = table.zoneMap(b, column);
                i++;
            }
        }
        final RoaringBitmapWriter<RoaringBitmap> out = RoaringBitmapWriter.writer().get();
        if (blocks > 0) {
            for (final int k : prune(predicate, kind, blockMaps).toArray()) {
                out.add(blockOf[k]);
            }
        }
        return out.get();
    }

    /**
     * The blocks that may match, given the predicate's column's zonemaps (one per block, in block
     * order) and its kind.
     *
     * @param predicate the filter, not null
     * @param kind      the kind of the predicate's column, not null
     * @param zoneMaps  that column's zonemap in every block, in block order
     * @return the positions in {@code zoneMaps} of the blocks that may hold a matching row
     * @throws IllegalArgumentException when the predicate or kind is null, or the zonemaps are absent
     *                                  (null or empty), hold a null entry, or one is inconsistent; the
     *                                  message names the column
     */
    public static RoaringBitmap prune(final Predicate predicate, final TypeKind kind, final ZoneMap[] zoneMaps) {
        if (predicate == null || kind == null) {
            throw new IllegalArgumentException("pruning needs a predicate and the column's kind, got "
                    + predicate + " and " + kind);
        }
        ZoneMapChecks.requireColumn(predicate.column(), kind, zoneMaps);
        if (predicate instanceof Predicate.Comparison c) {
            return comparison(c, kind, zoneMaps);
        }
        if (predicate instanceof Predicate.Between b) {
            return range(KeySpace.toSigned(kind, b.lo()), KeySpace.toSigned(kind, b.hi()), kind, zoneMaps);
        }
        return in((Predicate.In) predicate, kind, zoneMaps);
    }

    private static RoaringBitmap comparison(final Predicate.Comparison predicate, final TypeKind kind,
                                            final ZoneMap[] zoneMaps) {
        final long key = KeySpace.toSigned(kind, predicate.key());
        final boolean strict = kind != TypeKind.STRING;
        return switch (predicate.op()) {
            case EQ -> range(key, key, kind, zoneMaps);
            case LE -> range(Long.MIN_VALUE, key, kind, zoneMaps);
            case GE -> range(key, Long.MAX_VALUE, kind, zoneMaps);
            case LT -> strict && key == Long.MIN_VALUE ? new RoaringBitmap()
                    : range(Long.MIN_VALUE, strict ? key - 1 : key, kind, zoneMaps);
            case GT -> strict && key == Long.MAX_VALUE ? new RoaringBitmap()
                    : range(strict ? key + 1 : key, Long.MAX_VALUE, kind, zoneMaps);
        };
    }

    /** Blocks whose ordered key range meets {@code [lo, hi]} (ordered keys). */
    private static RoaringBitmap range(final long lo, final long hi, final TypeKind kind, final ZoneMap[] zoneMaps) {
        final RoaringBitmapWriter<RoaringBitmap> out = RoaringBitmapWriter.writer().get();
        if (lo <= hi) {
            for (int b = 0; b < zoneMaps.length; b++) {
                final ZoneMap z = zoneMaps[b];
                if (z.hasValues() && KeySpace.toSigned(kind, z.min()) <= hi && KeySpace.toSigned(kind, z.max()) >= lo) {
                    out.add(b);
                }
            }
        }
        return out.get();
    }

    /** Blocks whose key range holds at least one of the keys: a binary search per block. */
    private static RoaringBitmap in(final Predicate.In predicate, final TypeKind kind, final ZoneMap[] zoneMaps) {
        final int n = predicate.size();
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = KeySpace.toSigned(kind, predicate.key(i));
        }
        Arrays.sort(keys);
        final RoaringBitmapWriter<RoaringBitmap> out = RoaringBitmapWriter.writer().get();
        if (n == 0) {
            return out.get();
        }
        for (int b = 0; b < zoneMaps.length; b++) {
            final ZoneMap z = zoneMaps[b];
            if (!z.hasValues()) {
                continue;
            }
            final long min = KeySpace.toSigned(kind, z.min());
            int at = Arrays.binarySearch(keys, min);
            if (at < 0) {
                at = -at - 1;
            }
            if (at < n && keys[at] <= KeySpace.toSigned(kind, z.max())) {
                out.add(b);
            }
        }
        return out.get();
    }
}
