package io.sluice.shuffle;

import io.sluice.format.Block;
import java.util.Arrays;

/**
 * One batch's row numbers grouped by bucket: bucket {@code b}'s rows are
 * {@code rows()[start(b) .. end(b))}, ascending, so a gather over them keeps the input order inside
 * a bucket. The columnar half of a split (Trino's {@code PagePartitioner} computes its partition
 * positions the same way): bucket every row first, then move each column bucket by bucket.
 *
 * <p>Three layouts, picked per batch by whoever fills it:
 * <ul>
 *   <li><b>Lists</b>, for up to {@link #MAX_LIST_BUCKETS} buckets: every bucket owns a row list of a
 *       whole batch's capacity, so a bucket function appends each row to its bucket's list while it
 *       computes the bucket ({@link BucketFunction#group}), in one pass, without a bucket array or a
 *       count. The lists sit a cache line apart modulo 4 KiB, so that the appends of up to 64
 *       buckets do not evict each other.</li>
 *   <li><b>Counting sort</b>, for more buckets (whose lists would take too much memory): from a
 *       bucket per row, a count per bucket, then the row numbers placed stably.</li>
 *   <li><b>Runs</b>, when the buckets of the rows never go down (a batch sorted by the key): every
 *       bucket's rows are one run of consecutive rows, found by one scan and moved in bulk.</li>
 * </ul>
 *
 * <p>Owned by one thread (one shuffle operator); reused for every batch; allocates nothing per
 * batch. The memory is {@code bucketCount x (8192 + 16)} ints for lists (about 2 MiB for 64
 * buckets), taken on the first batch that needs it.
 */
public final class RowsByBucket {
    /** Most buckets whose rows are grouped into per-bucket lists; above, a counting sort groups them. */
    public static final int MAX_LIST_BUCKETS = 64;
    /** Ints between the starts of two buckets' lists: a batch, plus a cache line against 4 KiB aliasing. */
    static final int LIST_STRIDE = Block.MAX_ROWS + 16;
    /** Row numbers in order: the row list of the runs layout. */
    private static final int[] IDENTITY = new int[Block.MAX_ROWS];

    static {
        for (int i = 0; i < IDENTITY.length; i++) {
            IDENTITY[i] = i;
        }
    }

    private final int bucketCount;
    private final int[] starts;
    /** Where each bucket's rows end; while a bucket function appends to lists, where the next row goes. */
    private final int[] ends;
    /** The row lists ({@code bucketCount} strides), or null until the first batch grouped into lists. */
    private int[] lists;
    /** Row numbers sorted by bucket, or null until the first counting sort. */
    private int[] sorted;
    /** A bucket per row, or null until the first batch that needs one. */
    private int[] bucketOfRow;
    private int[] rows = IDENTITY;
    private int rowCount;
    /** Whether {@link #starts} hold the lists' fixed starts (another layout overwrites them). */
    private boolean listStarts;

    /**
     * Grouping for a function of {@code bucketCount} buckets.
     *
     * @param bucketCount the number of buckets, 1 to {@link Topology#MAX_BUCKETS}
     * @throws IllegalArgumentException when the count is out of range
     */
    public RowsByBucket(final int bucketCount) {
        if (bucketCount < 1 || bucketCount > Topology.MAX_BUCKETS) {
            throw new IllegalArgumentException("bucket count " + bucketCount + " is not valid: use 1.."
                    + Topology.MAX_BUCKETS);
        }
        this.bucketCount = bucketCount;
        this.starts = new int[bucketCount];
        this.ends = new int[bucketCount];
    }

    /**
     * The number of buckets.
     *
     * @return the count given at construction
     */
    public int bucketCount() {
        return bucketCount;
    }

    /**
     * The rows grouped last.
     *
     * @return the {@code rowCount} of the last grouping
     */
    public int rowCount() {
        return rowCount;
    }

    /**
     * The row numbers, bucket by bucket; valid until the next grouping.
     *
     * @return the array that {@link #start} and {@link #end} index; not a copy
     */
    public int[] rows() {
        return rows;
    }

    /**
     * Where a bucket's rows begin in {@link #rows()}.
     *
     * @param bucket 0 to {@link #bucketCount()} - 1
     * @return the index of its first row number
     */
    public int start(final int bucket) {
        return starts[bucket];
    }

    /**
     * Where a bucket's rows end in {@link #rows()}, exclusive.
     *
     * @param bucket 0 to {@link #bucketCount()} - 1
     * @return the index after its last row number; equal to {@link #start} for an empty bucket
     */
    public int end(final int bucket) {
        return ends[bucket];
    }

    /**
     * The bucket all rows of the last grouping fell in, or -1 when they are in several (or none).
     *
     * @return the one bucket, or -1
     */
    public int onlyBucket() {
        if (rowCount == 0) {
            return -1;
        }
        for (int b = 0; b < bucketCount; b++) {
            if (ends[b] - starts[b] == rowCount) {
                return b;
            }
        }
        return -1;
    }

    /** Whether a bucket function may append rows to per-bucket lists ({@link #beginLists}). */
    boolean takesLists() {
        return bucketCount <= MAX_LIST_BUCKETS;
    }

    /**
     * Starts a grouping into per-bucket lists: empties every list and returns the cursors, where
     * row {@code i} of bucket {@code b} goes to {@code lists[cursors[b]++]}. Only when
     * {@link #takesLists()}.
     *
     * @return the cursors (the ends, which the appends move on)
     */
    int[] beginLists(final int rows) {
        if (lists == null) {
            lists = new int[bucketCount * LIST_STRIDE];
        }
        if (!listStarts) {
            for (int b = 0; b < bucketCount; b++) {
                starts[b] = b * LIST_STRIDE;
            }
            listStarts = true;
        }
        System.arraycopy(starts, 0, ends, 0, bucketCount);
        this.rows = lists;
        this.rowCount = rows;
        return ends;
    }

    /** The row lists that {@link #beginLists} cursors index. */
    int[] lists() {
        return lists;
    }

    /**
     * A bucket array of a batch's capacity for a function to fill before {@link #group(int[], int)}.
     *
     * @return an array of at least {@link Block#MAX_ROWS} entries, owned by this grouping
     */
    int[] bucketScratch() {
        if (bucketOfRow == null) {
            bucketOfRow = new int[Block.MAX_ROWS];
        }
        return bucketOfRow;
    }

    /**
     * Groups rows {@code [0, rowCount)} by the bucket of each: into lists when there are few
     * buckets, by a counting sort otherwise.
     *
     * @param buckets  the bucket of row {@code i} at index {@code i}, each 0 to {@link #bucketCount()} - 1
     * @param rowCount the rows, 0 to {@link Block#MAX_ROWS}
     */
    public void group(final int[] buckets, final int rowCount) {
        if (takesLists()) {
            final int[] cursor = beginLists(rowCount);
            final int[] target = lists;
            for (int i = 0; i < rowCount; i++) {
                target[cursor[buckets[i]]++] = i;
            }
            return;
        }
        countingSort(buckets, rowCount);
    }

    private void countingSort(final int[] buckets, final int rowCount) {
        listStarts = false;
        if (sorted == null) {
            sorted = new int[Block.MAX_ROWS];
        }
        final int[] counts = ends;
        Arrays.fill(counts, 0);
        for (int i = 0; i < rowCount; i++) {
            counts[buckets[i]]++;
        }
        int sum = 0;
        for (int b = 0; b < bucketCount; b++) {
            starts[b] = sum;
            sum += counts[b];
            counts[b] = starts[b];
        }
        final int[] order = sorted;
        final int[] cursor = ends;
        for (int i = 0; i < rowCount; i++) {
            order[cursor[buckets[i]]++] = i;
        }
        this.rows = order;
        this.rowCount = rowCount;
    }

    /**
     * Groups rows {@code [0, rowCount)} as runs if their buckets never go down along the rows: then
     * bucket {@code b}'s rows are the consecutive rows {@code [start(b), end(b))} and {@link #rows()}
     * is the identity. A check, not a trust: buckets that do go down leave nothing usable and return
     * false, so a wrong "sorted" claim costs speed, never correctness.
     *
     * @param buckets  the bucket of row {@code i} at index {@code i}
     * @param rowCount the rows, 1 to {@link Block#MAX_ROWS}
     * @return whether the rows are grouped as runs
     */
    public boolean groupRuns(final int[] buckets, final int rowCount) {
        listStarts = false;
        int previous = buckets[0];
        for (int b = 0; b <= previous; b++) {
            starts[b] = 0;
            ends[b] = 0;
        }
        // A scan for changes rather than a count: a run of one bucket would chain every increment of its counter.
        for (int i = 1; i < rowCount; i++) {
            final int b = buckets[i];
            if (b != previous) {
                if (b < previous) {
                    return false;
                }
                ends[previous] = i;
                for (int skipped = previous + 1; skipped <= b; skipped++) {
                    starts[skipped] = i;
                    ends[skipped] = i;
                }
                previous = b;
            }
        }
        ends[previous] = rowCount;
        for (int b = previous + 1; b < bucketCount; b++) {
            starts[b] = rowCount;
            ends[b] = rowCount;
        }
        this.rows = IDENTITY;
        this.rowCount = rowCount;
        return true;
    }
}
