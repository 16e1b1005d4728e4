package io.sluice.dispatch;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What one exchange moved, as counted on one CN (or, merged, on the cluster): rows and
 * batches delivered locally through queues, rows, batches and payload bytes sent through Aeron,
 * how many of those frames carried a stored block as it lies in its file instead of a re-encoded batch,
 * batches and rows per destination bucket, and batches dropped for destinations that finished early:
 * by a local sender, which sees its queue closed, or by the receiving CN, which drops the DATA frames
 * that arrive for them (remote senders cannot tell, and send them). Thread-safe; updated once per
 * batch and destination, never per row.
 */
public final class ExchangeCounters {
    private final AtomicLong localRows = new AtomicLong();
    private final AtomicLong localBatches = new AtomicLong();
    private final AtomicLong localBytes = new AtomicLong();
    private final AtomicLong remoteRows = new AtomicLong();
    private final AtomicLong remoteBatches = new AtomicLong();
    private final AtomicLong remoteBytes = new AtomicLong();
    private final AtomicLong storedBatches = new AtomicLong();
    private final AtomicLong storedBytes = new AtomicLong();
    private final AtomicLong droppedBatches = new AtomicLong();
    private final AtomicLong droppedRemoteBatches = new AtomicLong();
    private final AtomicLong localQueueWaits = new AtomicLong();
    private final AtomicLong remoteBackPressureRetries = new AtomicLong();
    private final AtomicLong splitBatches = new AtomicLong();
    private final AtomicLong undeliveredCredits = new AtomicLong();
    private final AtomicLongArray batchesByBucket;
    private final AtomicLongArray rowsByBucket;

    public ExchangeCounters(final int bucketCount) {
        this.batchesByBucket = new AtomicLongArray(bucketCount);
        this.rowsByBucket = new AtomicLongArray(bucketCount);
    }

    void onLocal(final int bucket, final int rows, final long bytes) {
        localRows.addAndGet(rows);
        localBytes.addAndGet(bytes);
        localBatches.incrementAndGet();
        batchesByBucket.incrementAndGet(bucket);
        rowsByBucket.addAndGet(bucket, rows);
    }

    void onRemote(final int bucket, final int rows, final int bytes, final boolean stored) {
        remoteRows.addAndGet(rows);
        remoteBatches.incrementAndGet();
        remoteBytes.addAndGet(bytes);
        if (stored) {
            storedBatches.incrementAndGet();
            storedBytes.addAndGet(bytes);
        }
        batchesByBucket.incrementAndGet(bucket);
        rowsByBucket.addAndGet(bucket, rows);
    }

    void onLocalQueueFull() {
        localQueueWaits.incrementAndGet();
    }

    void onRemoteBackPressure(final long retries) {
        remoteBackPressureRetries.addAndGet(retries);
    }

    void onSplit() {
        splitBatches.incrementAndGet();
    }

    void onUndeliveredCredit() {
        undeliveredCredits.incrementAndGet();
    }

    void onDropped() {
        droppedBatches.incrementAndGet();
    }

    void onRemoteDropped(final long batches) {
        droppedRemoteBatches.addAndGet(batches);
    }

    /** Adds this CN's counts into {@code total}, for a cluster-wide view. */
    public void addTo(final ExchangeCounters total) {
        total.localRows.addAndGet(localRows.get());
        total.localBatches.addAndGet(localBatches.get());
        total.localBytes.addAndGet(localBytes.get());
        total.remoteRows.addAndGet(remoteRows.get());
        total.remoteBatches.addAndGet(remoteBatches.get());
        total.remoteBytes.addAndGet(remoteBytes.get());
        total.storedBatches.addAndGet(storedBatches.get());
        total.storedBytes.addAndGet(storedBytes.get());
        total.droppedBatches.addAndGet(droppedBatches.get());
        total.droppedRemoteBatches.addAndGet(droppedRemoteBatches.get());
        total.localQueueWaits.addAndGet(localQueueWaits.get());
        total.remoteBackPressureRetries.addAndGet(remoteBackPressureRetries.get());
        total.splitBatches.addAndGet(splitBatches.get());
        total.undeliveredCredits.addAndGet(undeliveredCredits.get());
        for (int b = 0; b < batchesByBucket.length(); b++) {
            total.batchesByBucket.addAndGet(b, batchesByBucket.get(b));
            total.rowsByBucket.addAndGet(b, rowsByBucket.get(b));
        }
    }

    /** Column bytes of the batches delivered through in-process queues (a copy per destination). */
    public long localBytes() {
        return localBytes.get();
    }

    /** Rows delivered through in-process queues. */
    public long localRows() {
        return localRows.get();
    }

    /** Batches delivered through in-process queues. */
    public long localBatches() {
        return localBatches.get();
    }

    /** Rows sent through Aeron (once per remote destination). */
    public long remoteRows() {
        return remoteRows.get();
    }

    /** DATA frames sent through Aeron. */
    public long remoteBatches() {
        return remoteBatches.get();
    }

    /** Payload bytes of DATA frames (block layout, headers not counted). */
    public long remoteBytes() {
        return remoteBytes.get();
    }

    /**
     * DATA frames whose payload was a stored block copied from its file as it lies there (the columns a
     * scan read of it, unfiltered), not a batch encoded again; part of {@link #remoteBatches}.
     */
    public long storedBatches() {
        return storedBatches.get();
    }

    /** Payload bytes of the {@link #storedBatches} frames; part of {@link #remoteBytes}. */
    public long storedBytes() {
        return storedBytes.get();
    }

    /** Batches a sender did not put in a local destination's queue because it had finished early. */
    public long droppedBatches() {
        return droppedBatches.get();
    }

    /**
     * DATA frames this CN received for one of its destinations that had finished early or closed, and
     * dropped: on arrival, or still unread in its inbox when it finished. Counted on the receiving CN,
     * also in {@link #remoteBatches} of the sending one.
     */
    public long droppedRemoteBatches() {
        return droppedRemoteBatches.get();
    }

    /** Times a sender found a local queue full and waited (back pressure). */
    public long localQueueWaits() {
        return localQueueWaits.get();
    }

    /** Offers Aeron refused with back pressure and the senders retried; added when a sink closes. */
    public long remoteBackPressureRetries() {
        return remoteBackPressureRetries.get();
    }

    /** Batches split in two because their encoding exceeded the largest frame. */
    public long splitBatches() {
        return splitBatches.get();
    }

    /** Grants of unbounded credit a closing destination could not deliver to a sending CN (closed or dead). */
    public long undeliveredCredits() {
        return undeliveredCredits.get();
    }

    /** Batches sent to bucket {@code bucket}, local or remote. */
    public long batchesTo(final int bucket) {
        return batchesByBucket.get(bucket);
    }

    /** Rows sent to bucket {@code bucket}, local or remote. */
    public long rowsTo(final int bucket) {
        return rowsByBucket.get(bucket);
    }

    @Override
    public String toString() {
        return "ExchangeCounters{localRows=" + localRows + ", localBatches=" + localBatches + ", remoteRows="
                + remoteRows + ", remoteBatches=" + remoteBatches + ", remoteBytes=" + remoteBytes
                + ", storedBatches=" + storedBatches + ", storedBytes=" + storedBytes
                + ", droppedBatches=" + droppedBatches + ", droppedRemoteBatches=" + droppedRemoteBatches
                + ", localQueueWaits=" + localQueueWaits
                + ", remoteBackPressureRetries=" + remoteBackPressureRetries + ", splitBatches=" + splitBatches + '}';
    }
}
