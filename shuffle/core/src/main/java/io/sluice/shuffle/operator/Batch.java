package io.sluice.shuffle.operator;

import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.StoredBlock;
import io.sluice.format.ZoneMap;

/**
 * The unit that flows between operators: columns of equal row count (at most
 * {@link Block#MAX_ROWS}), plus the {@code shuffleIdx} the shuffle operator sets and dispatch reads.
 * A batch may also carry what its producer knows for free: the zonemaps of its columns (a scan has
 * them from the block) and the column its rows are sorted by. The shuffle operator uses them to
 * route a batch whole; they are trusted, not checked row by row.
 *
 * <p>{@code shuffleIdx} is never serialized: it means something only between a shuffle operator and
 * the dispatch in the same pipeline (seed 003).
 *
 * <p>A batch that is exactly a stored block's rows of the columns a scan read may carry that block's
 * {@link StoredBlock}: dispatch then sends the stored bytes instead of encoding the batch. Only
 * {@link #withShuffleIdx} and {@link #withSortedBy}, which keep the rows and columns, keep it; every
 * batch built from columns (a filter's, a projection's, a shuffle buffer's) starts without.
 *
 * <p>A batch emitted by a shuffle operator from its per-bucket buffers is <em>pooled</em>: its
 * vectors are views over buffer memory that goes back to the pool on {@link #release()}. Every
 * other batch owns nothing and ignores {@code release()}.
 */
public final class Batch {
    /** {@link #shuffleIdx()} of a batch no shuffle operator has tagged. */
    public static final int NO_SHUFFLE_IDX = -1;
    /** {@link #sortedBy()} of a batch whose row order is unknown. */
    public static final int NOT_SORTED = -1;

    private final ColumnVector[] columns;
    private final int rowCount;
    private final ZoneMap[] zoneMaps;
    private final int sortedBy;
    private final int shuffleIdx;
    private final BucketBuffer owner;
    private final int lease;
    private final StoredBlock stored;

    /**
     * A batch over the given columns.
     *
     * @param columns  one or more columns, all with the same row count, at most {@link Block#MAX_ROWS}
     * @param zoneMaps null when unknown, else one entry per column; an entry may be null (that
     *                 column's range is unknown) and must otherwise describe exactly this batch's rows
     * @param sortedBy the column whose values ascend through the rows (strings by unsigned bytes), or
     *                 {@link #NOT_SORTED}
     * @throws IllegalArgumentException when there is no column, the row counts differ or exceed
     *                                  {@link Block#MAX_ROWS}, a zonemap describes another row count or
     *                                  has min above max, or {@code sortedBy} is not a column
     */
    public Batch(final ColumnVector[] columns, final ZoneMap[] zoneMaps, final int sortedBy) {
        this(columns.clone(), validRowCount(columns), zoneMaps == null ? null : zoneMaps.clone(), sortedBy,
                NO_SHUFFLE_IDX, null, 0, null);
        if (this.zoneMaps != null) {
            checkZoneMaps(this.zoneMaps, this.columns, rowCount);
        }
        checkSortedBy(sortedBy, columns.length);
    }

    private Batch(final ColumnVector[] columns, final int rowCount, final ZoneMap[] zoneMaps, final int sortedBy,
                  final int shuffleIdx, final BucketBuffer owner, final int lease, final StoredBlock stored) {
        this.columns = columns;
        this.rowCount = rowCount;
        this.zoneMaps = zoneMaps;
        this.sortedBy = sortedBy;
        this.shuffleIdx = shuffleIdx;
        this.owner = owner;
        this.lease = lease;
        this.stored = stored;
    }

    /**
     * A batch of columns with nothing known about their ranges or order.
     *
     * @param columns one or more columns of the same row count, at most {@link Block#MAX_ROWS}
     * @return an untagged batch without zonemaps, {@link #NOT_SORTED}
     * @throws IllegalArgumentException as {@link #Batch(ColumnVector[], ZoneMap[], int)} does
     */
    public static Batch of(final ColumnVector... columns) {
        return new Batch(columns, null, NOT_SORTED);
    }

    /**
     * A batch of a block's rows, carrying the block's zonemaps.
     *
     * @param block the block, whose vectors the batch shares
     * @return an untagged batch of the block's columns and zonemaps, {@link #NOT_SORTED}
     * @throws IllegalArgumentException when the block has no column or a zonemap does not describe its rows
     */
    public static Batch of(final Block block) {
        return new Batch(block.columns(), block.zoneMaps(), NOT_SORTED);
    }

    /** A pooled batch over a shuffle buffer's arrays; checked by the buffer that builds it. */
    static Batch pooled(final ColumnVector[] columns, final int rowCount, final int shuffleIdx,
                        final BucketBuffer owner, final int lease) {
        return new Batch(columns, rowCount, null, NOT_SORTED, shuffleIdx, owner, lease, null);
    }

    private static int validRowCount(final ColumnVector[] columns) {
        if (columns.length == 0) {
            throw new IllegalArgumentException("a batch needs at least one column");
        }
        final int rows = columns[0].rowCount();
        if (rows > Block.MAX_ROWS) {
            throw new IllegalArgumentException("a batch holds at most " + Block.MAX_ROWS + " rows, got " + rows
                    + ": cut the input into batches of at most " + Block.MAX_ROWS + " rows");
        }
        for (int c = 1; c < columns.length; c++) {
            if (columns[c].rowCount() != rows) {
                throw new IllegalArgumentException("column " + c + " has " + columns[c].rowCount()
                        + " rows but column 0 has " + rows + ": all columns of a batch have the same row count");
            }
        }
        return rows;
    }

    private static void checkSortedBy(final int column, final int columnCount) {
        if (column < NOT_SORTED || column >= columnCount) {
            throw new IllegalArgumentException("sorted-by column " + column + " is out of range: the batch has "
                    + columnCount + " columns (0.." + (columnCount - 1) + "), or use NOT_SORTED (-1)");
        }
    }

    private static void checkZoneMaps(final ZoneMap[] zoneMaps, final ColumnVector[] columns, final int rows) {
        final int columnCount = columns.length;
        if (zoneMaps.length != columnCount) {
            throw new IllegalArgumentException(zoneMaps.length + " zonemaps for " + columnCount
                    + " columns: give one per column (null entries for unknown ones) or none");
        }
        for (int c = 0; c < columnCount; c++) {
            final ZoneMap zm = zoneMaps[c];
            if (zm != null && zm.rowCount() != rows) {
                throw new IllegalArgumentException("the zonemap of column " + c + " describes " + zm.rowCount()
                        + " rows but the batch has " + rows + ": a zonemap of other rows would route this batch "
                        + "to the wrong bucket; pass the zonemap of these rows or none");
            }
            if (zm != null && zm.hasValues() && columns[c].type().kind().compareKeys(zm.min(), zm.max()) > 0) {
                throw new IllegalArgumentException("the zonemap of column " + c + " has min " + zm.min()
                        + " above max " + zm.max() + " (in " + columns[c].type() + " key order): pass the zonemap "
                        + "of these rows or none");
            }
        }
    }

    /**
     * The same rows tagged with a bucket: shares the columns, copies nothing.
     *
     * @param bucket the bucket, 0 or more
     * @return a new batch over the same vectors, zonemaps and order
     * @throws IllegalArgumentException when {@code bucket} is negative
     */
    public Batch withShuffleIdx(final int bucket) {
        if (bucket < 0) {
            throw new IllegalArgumentException("shuffleIdx must be a bucket (0 or more), got " + bucket);
        }
        return new Batch(columns, rowCount, zoneMaps, sortedBy, bucket, owner, lease, stored);
    }

    /**
     * The same rows, declared sorted by a column (the caller vouches for the order).
     *
     * @param column the column whose values ascend through the rows, or {@link #NOT_SORTED}
     * @return a new batch over the same vectors, zonemaps and tag
     * @throws IllegalArgumentException when {@code column} is neither a column nor {@link #NOT_SORTED}
     */
    public Batch withSortedBy(final int column) {
        checkSortedBy(column, columns.length);
        return new Batch(columns, rowCount, zoneMaps, column, shuffleIdx, owner, lease, stored);
    }

    /**
     * The same batch, declared to be exactly {@code block}'s stored rows of these columns (the caller,
     * a scan that has just decoded them, vouches for it), so that dispatch can send it as stored.
     *
     * @param block the stored columns, or null for none (this batch is returned)
     * @return a new batch over the same vectors, zonemaps, order and tag, carrying {@code block}
     * @throws IllegalArgumentException when the stored block has other row or column counts, or this
     *                                  batch is pooled
     */
    public Batch withStoredBlock(final StoredBlock block) {
        if (block == null) {
            return this;
        }
        if (block.rowCount() != rowCount || block.columnCount() != columns.length || owner != null) {
            throw new IllegalArgumentException(block.describe() + " holds " + block.rowCount() + " rows of "
                    + block.columnCount() + " columns, but the batch " + this + " is not those rows: attach a stored"
                    + " block only to the batch decoded from it, unfiltered and unprojected");
        }
        return new Batch(columns, rowCount, zoneMaps, sortedBy, shuffleIdx, owner, lease, block);
    }

    /**
     * The stored block this batch is exactly the rows of, or null.
     *
     * @return what {@link #withStoredBlock} attached, kept by {@link #withShuffleIdx} and {@link #withSortedBy}
     */
    public StoredBlock storedBlock() {
        return stored;
    }

    /**
     * Number of rows.
     *
     * @return 0 to {@link Block#MAX_ROWS}
     */
    public int rowCount() {
        return rowCount;
    }

    /**
     * Number of columns.
     *
     * @return 1 or more
     */
    public int columnCount() {
        return columns.length;
    }

    /**
     * The column at a position.
     *
     * @param index the column, 0 to {@link #columnCount()} - 1
     * @return its vector (a view over pool memory for a pooled batch)
     */
    public ColumnVector column(final int index) {
        return columns[index];
    }

    /**
     * The zonemap of a column, or null when it is not known.
     *
     * @param column the column, 0 to {@link #columnCount()} - 1
     * @return the zonemap of that column over this batch's rows, or null
     */
    public ZoneMap zoneMap(final int column) {
        return zoneMaps == null ? null : zoneMaps[column];
    }

    /**
     * The column the rows ascend by, or {@link #NOT_SORTED}.
     *
     * @return the column's position, or {@link #NOT_SORTED}
     */
    public int sortedBy() {
        return sortedBy;
    }

    /**
     * The bucket the shuffle operator tagged this batch with, or {@link #NO_SHUFFLE_IDX}.
     *
     * @return the bucket, 0 or more, or {@link #NO_SHUFFLE_IDX}
     */
    public int shuffleIdx() {
        return shuffleIdx;
    }

    /**
     * Whether this batch's vectors are views over pooled shuffle memory (see {@link #release()}).
     *
     * @return true for a batch a shuffle operator emitted from its bucket buffers
     */
    public boolean isPooled() {
        return owner != null;
    }

    /**
     * Gives the pooled memory behind this batch back to its shuffle operator's pool; the batch must
     * not be read afterwards. May be called from any thread. Does nothing for a batch that is not
     * pooled; releasing a pooled batch twice is an error.
     */
    public void release() {
        if (owner != null) {
            owner.release(lease);
        }
    }

    @Override
    public String toString() {
        return "Batch[rows=" + rowCount + ", columns=" + columns.length
                + (shuffleIdx == NO_SHUFFLE_IDX ? "" : ", shuffleIdx=" + shuffleIdx)
                + (sortedBy == NOT_SORTED ? "" : ", sortedBy=" + sortedBy)
                + (owner == null ? "" : ", pooled") + (stored == null ? "" : ", stored") + "]";
    }
}
