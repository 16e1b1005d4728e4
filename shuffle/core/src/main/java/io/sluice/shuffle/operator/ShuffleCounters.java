package io.sluice.shuffle.operator;

/**
 * What one shuffle operator did, for reports and tests.
 *
 * @param batchesIn         batches added
 * @param rowsIn            rows added
 * @param batchesOut        batches emitted (whole-batch routes included)
 * @param rowsOut           rows emitted; equals {@code rowsIn} once the operator is finished
 * @param wholeBatchRoutes  batches tagged and passed on whole, without copying their rows
 * @param wholeAfterBucketing of those, batches whose zonemap did not prove one bucket but whose rows,
 *                          bucketed one by one, all landed in one
 * @param splitBatches      non-empty batches split row by row into bucket buffers
 * @param earlyFlushes      bucket batches emitted before they were full because the pool was exhausted
 * @param rowsPerBucket     rows emitted per bucket (a copy)
 * @param peakBufferedBytes most bytes the buffer pool held at once (filling, emitted but not yet
 *                          released, and idle buffers); never above the budget
 */
public record ShuffleCounters(long batchesIn, long rowsIn, long batchesOut, long rowsOut, long wholeBatchRoutes,
                              long wholeAfterBucketing, long splitBatches, long earlyFlushes, long[] rowsPerBucket, long peakBufferedBytes) {
    /**
     * Copies {@code rowsPerBucket}, so later changes to the caller's array do not show.
     *
     * @param batchesIn         batches added
     * @param rowsIn            rows added
     * @param batchesOut        batches emitted (whole-batch routes included)
     * @param rowsOut           rows emitted
     * @param wholeBatchRoutes  batches tagged and passed on whole
     * @param wholeAfterBucketing of those, batches found in one bucket only by bucketing their rows
     * @param splitBatches      non-empty batches split row by row
     * @param earlyFlushes      bucket batches emitted before they were full
     * @param rowsPerBucket     rows emitted per bucket, one entry per bucket; copied
     * @param peakBufferedBytes most bytes the buffer pool held at once
     */
    public ShuffleCounters {
        rowsPerBucket = rowsPerBucket.clone();
    }

    /**
     * Rows emitted to a bucket.
     *
     * @param bucket the bucket, 0 to {@code rowsPerBucket().length - 1}
     * @return the rows emitted to it so far
     */
    public long rowsOf(final int bucket) {
        return rowsPerBucket[bucket];
    }

    /**
     * Rows emitted per bucket.
     *
     * @return a new array, one count per bucket
     */
    @Override
    public long[] rowsPerBucket() {
        return rowsPerBucket.clone();
    }

    @Override
    public String toString() {
        return "ShuffleCounters[batchesIn=" + batchesIn + ", rowsIn=" + rowsIn + ", batchesOut=" + batchesOut
                + ", rowsOut=" + rowsOut + ", wholeBatchRoutes=" + wholeBatchRoutes
                + ", wholeAfterBucketing=" + wholeAfterBucketing + ", splitBatches=" + splitBatches
                + ", earlyFlushes=" + earlyFlushes + ", rowsPerBucket=" + java.util.Arrays.toString(rowsPerBucket)
                + ", peakBufferedBytes=" + peakBufferedBytes + "]";
    }
}
