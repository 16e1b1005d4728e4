package io.sluice.shuffle.operator;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.HeavyKeyBucketFunction;
import io.sluice.shuffle.HeavyKeyDispatch;
import io.sluice.shuffle.RowsByBucket;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The shuffle operator of seed 003: takes batches and emits per-bucket batches tagged with their
 * {@code shuffleIdx}, for a dispatch operator in the same pipeline to route. A batch whose keys provably
 * lie in one bucket is tagged and passed on whole; any other is split, column by column, into bucket
 * buffers from a pool bounded by {@link ShuffleOptions#poolBytes()}, and a full pool holds the producer
 * back ({@link #needsInput()} false) instead of growing. Driven pull-style ({@link #needsInput()},
 * {@link #addInput}, {@link #getOutput()}, {@link #finish()}) or push-style ({@link #push},
 * {@link #run}); the caller releases each batch it takes ({@link Batch#release()}).
 *
 * <p>With a {@link HeavyKeyBucketFunction} (per-key dispatch) the rows of heavy keys are placed where the
 * other keys left the buckets emptiest, this CN's buckets first ({@link HeavyKeyDispatch#LOCAL_FIRST},
 * {@link HeavyRowPlacement}), or copied to every bucket ({@link HeavyKeyDispatch#REPLICATE}); rows of a
 * dropped null key go nowhere. The split walks slots: one per bucket, then one per bucket for the heavy rows.
 *
 * <p>Not thread-safe: one thread drives an operator; only {@link Batch#release()} may come from other
 * threads. How the split, the pool and back pressure work: {@code shuffle/README.md}.
 */
public final class ShuffleOperator {
    /** Bytes a string column's buffer starts with; it doubles as needed, within the pool budget. */
    static final int INITIAL_STRING_BYTES = 16 * 1024;
    /** Rows bucketed first to tell a batch that may lie in one bucket from one that spans several. */
    static final int PROBE_ROWS = 64;

    private final Schema schema;
    private final ColumnType[] types;
    private final int[] keyColumns;
    private final BucketFunction function;
    private final WholeBatchRouting routing;
    private final int bucketCount;
    /** Buckets, then one slot per target of the heavy-key rows under per-key dispatch. */
    private final int slotCount;
    /**
     * The targets of heavy-key rows: every bucket (each copied the rows, or each taking its placed slice), or
     * empty without per-key dispatch.
     */
    private final int[] heavyTargets;
    private final boolean replicateHeavy;
    /** Where a kept-local function's heavy rows go, or null. */
    private final HeavyRowPlacement placement;
    /** The heavy rows of the batch being split each bucket takes (kept-local functions). */
    private final int[] heavySlice;
    /** Where each bucket's slice of the heavy rows starts in the grouped rows, and where the last ends. */
    private final int[] heavyCut;
    private final boolean hasStrings;
    private final BufferPool pool;
    private final BucketBuffer[] open;
    private final ArrayDeque<Batch> output = new ArrayDeque<>();

    private final ColumnVector[] keyVectors;
    private final ColumnVector[] source;
    /** The bucket of each row of a batch that is bucketed before it is grouped (probed, or sorted). */
    private final int[] rowBuckets = new int[Block.MAX_ROWS];
    /** The rows of the batch being split, grouped by bucket: {@link #perKeyGrouped} or {@link #plainGrouped}. */
    private RowsByBucket grouped;
    private final RowsByBucket perKeyGrouped;
    /**
     * The owner function when the per-key function dispatches only null keys apart (no heavy key): a batch
     * without a null key is split by it, in one pass, as without per-key dispatch. Else null.
     */
    private final BucketFunction plain;
    private final RowsByBucket plainGrouped;
    /** The slots of the batch being split: {@link #slotCount}, or the buckets alone for a plain batch. */
    private int batchSlots;

    /** The columns that are gathered across buckets one column at a time (all but strings). */
    private final int[] fixedColumns;
    /**
     * Rows taken into buffers whose fixed-width values are still to be gathered: piece {@code q} is
     * rows {@code rows[pieceFrom[q] .. + pieceCount[q])} of the pending batch at position
     * {@code pieceAt[q]} of {@code pieceBuffers[q]}.
     */
    private BucketBuffer[] pieceBuffers;
    private int[] pieceFrom;
    private int[] pieceCount;
    private int[] pieceAt;
    private int pieces;
    /** Buffers filled by the pieces, emitted once their values are gathered. */
    private BucketBuffer[] filled;
    private int filledCount;

    /** The split batch whose rows are not all in buffers yet, or null. */
    private Batch pending;
    private int pendingBucket;
    private int pendingPosition;
    private boolean finishing;
    private boolean flushed;

    private long batchesIn;
    private long rowsIn;
    private long batchesOut;
    private long rowsOut;
    private long wholeBatchRoutes;
    private long wholeAfterBucketing;
    private long splitBatches;
    private long earlyFlushes;
    private final long[] rowsPerBucket;

    /**
     * A shuffle of batches with the given columns by one key column, with the default options.
     *
     * @param input     the columns every batch has, in order
     * @param keyColumn the position of the key column in {@code input}
     * @param function  the bucket function; it must take the key column's kind
     * @throws IllegalArgumentException as {@link #ShuffleOperator(Schema, int[], BucketFunction, ShuffleOptions)}
     *                                  does, or when a system property of {@link ShuffleOptions#defaults()} is
     *                                  not valid
     * @see #ShuffleOperator(Schema, int[], BucketFunction, ShuffleOptions)
     */
    public ShuffleOperator(final Schema input, final int keyColumn, final BucketFunction function) {
        this(input, new int[] {keyColumn}, function, ShuffleOptions.defaults());
    }

    /**
     * A shuffle of batches with the given columns.
     *
     * @param input      the columns every batch has, in order
     * @param keyColumns the key columns, in the order the bucket function takes them
     * @param function   the bucket function; it must take the key columns' kinds
     * @param options    pool budget and whole-batch routing
     * @throws IllegalArgumentException when there is no key column or one is out of range, the function
     *                                  does not take the key kinds, routing is REQUIRED with more than one
     *                                  key column, or the pool budget is below one bucket buffer
     */
    public ShuffleOperator(final Schema input, final int[] keyColumns, final BucketFunction function,
                           final ShuffleOptions options) {
        this.schema = input;
        this.types = new ColumnType[input.size()];
        boolean strings = false;
        for (int c = 0; c < types.length; c++) {
            types[c] = input.type(c);
            strings |= types[c].kind() == TypeKind.STRING;
        }
        this.hasStrings = strings;
        this.keyColumns = keyColumns.clone();
        this.function = function;
        this.routing = options.routing();
        this.bucketCount = function.bucketCount();
        checkKeys(input, this.keyColumns, function);
        if (routing == WholeBatchRouting.REQUIRED && keyColumns.length != 1) {
            throw new IllegalArgumentException("whole-batch routing REQUIRED needs a single key column (a zonemap "
                    + "covers one column), got " + keyColumns.length + ": use WHEN_PROVEN");
        }
        this.pool = new BufferPool(options.poolBytes(), types, INITIAL_STRING_BYTES);
        if (options.poolBytes() < pool.bufferBytes()) {
            throw new IllegalArgumentException("shuffle pool budget " + options.poolBytes() + " bytes is below one "
                    + "bucket buffer for columns " + input + " (" + pool.bufferBytes() + " bytes for "
                    + Block.MAX_ROWS + " rows): raise poolBytes to at least " + pool.bufferBytes());
        }
        this.open = new BucketBuffer[bucketCount];
        this.keyVectors = new ColumnVector[keyColumns.length];
        this.source = new ColumnVector[types.length];
        if (function instanceof HeavyKeyBucketFunction perKey) {
            this.heavyTargets = new int[bucketCount];
            for (int b = 0; b < bucketCount; b++) {
                heavyTargets[b] = b;
            }
            this.replicateHeavy = perKey.dispatch() == HeavyKeyDispatch.REPLICATE;
            this.perKeyGrouped = new RowsByBucket(perKey.groupCount());
            this.plain = perKey.heavyKeys().size() == 0 ? perKey.owner() : null;
            if (replicateHeavy) {
                this.placement = null;
            } else {
                final int[] home = perKey.targets();
                this.placement = new HeavyRowPlacement(bucketCount / home.length, home.length,
                        home[0] / home.length);
            }
        } else {
            this.heavyTargets = new int[0];
            this.replicateHeavy = false;
            this.perKeyGrouped = new RowsByBucket(bucketCount);
            this.plain = null;
            this.placement = null;
        }
        this.grouped = perKeyGrouped;
        this.plainGrouped = plain == null ? null : new RowsByBucket(bucketCount);
        this.heavySlice = placement == null ? null : new int[bucketCount];
        this.heavyCut = placement == null ? null : new int[bucketCount + 1];
        this.slotCount = bucketCount + heavyTargets.length;
        int fixed = 0;
        for (final ColumnType type : types) {
            fixed += BucketBuffer.isFixedWidth(BucketBuffer.shapeOf(type)) ? 1 : 0;
        }
        this.fixedColumns = new int[fixed];
        for (int c = 0, f = 0; c < types.length; c++) {
            if (BucketBuffer.isFixedWidth(BucketBuffer.shapeOf(types[c]))) {
                fixedColumns[f++] = c;
            }
        }
        final int initialPieces = 2 * Math.min(bucketCount, RowsByBucket.MAX_LIST_BUCKETS) + 2;
        this.pieceBuffers = new BucketBuffer[initialPieces];
        this.pieceFrom = new int[initialPieces];
        this.pieceCount = new int[initialPieces];
        this.pieceAt = new int[initialPieces];
        this.filled = new BucketBuffer[initialPieces];
        this.rowsPerBucket = new long[bucketCount];
    }

    private static void checkKeys(final Schema input, final int[] keyColumns, final BucketFunction function) {
        if (keyColumns.length == 0) {
            throw new IllegalArgumentException("a shuffle needs at least one key column");
        }
        final TypeKind[] kinds = new TypeKind[keyColumns.length];
        for (int k = 0; k < keyColumns.length; k++) {
            final int column = keyColumns[k];
            if (column < 0 || column >= input.size()) {
                throw new IllegalArgumentException("key column " + column + " is out of range: the input has "
                        + input.size() + " columns (0.." + (input.size() - 1) + ": " + input.names() + ")");
            }
            kinds[k] = input.type(column).kind();
        }
        try {
            function.checkKeyKinds(kinds);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("the shuffle key " + keyNames(input, keyColumns) + " does not suit "
                    + function.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    private static String keyNames(final Schema input, final int[] keyColumns) {
        final StringBuilder sb = new StringBuilder("(");
        for (int k = 0; k < keyColumns.length; k++) {
            sb.append(k == 0 ? "" : ", ").append(input.field(keyColumns[k]));
        }
        return sb.append(')').toString();
    }

    /**
     * The smallest pool budget that works for batches of these columns: one bucket buffer, 8192 rows
     * of each fixed-width column plus offsets, null bitmaps and initial string bytes. Such a pool
     * gives correct output, but in batches as small as one row; give each bucket a buffer and some
     * room for emitted batches to get full 8192-row batches.
     *
     * @param input the columns every batch will have
     * @return the budget in bytes
     */
    public static long minimumPoolBytes(final Schema input) {
        final byte[] shapes = new byte[input.size()];
        for (int c = 0; c < shapes.length; c++) {
            shapes[c] = BucketBuffer.shapeOf(input.type(c));
        }
        return BucketBuffer.fixedBytes(shapes, INITIAL_STRING_BYTES);
    }

    /**
     * Runs a shuffle over the caller's batches, handing each emitted bucket batch to a handler.
     *
     * @param input      the columns every batch has, in order
     * @param keyColumns the key columns, in the order the bucket function takes them
     * @param function   the bucket function; it must take the key columns' kinds
     * @param options    pool budget and whole-batch routing
     * @param batches    the input, read once in order
     * @param handler    receives each bucket batch, which is released when it returns
     * @return the counters once every batch is emitted
     * @throws IllegalArgumentException as the constructor and {@link #addInput} do
     */
    public static ShuffleCounters run(final Schema input, final int[] keyColumns, final BucketFunction function,
                                      final ShuffleOptions options, final Iterable<Batch> batches,
                                      final BatchHandler handler) {
        final ShuffleOperator operator = new ShuffleOperator(input, keyColumns, function, options);
        for (final Batch batch : batches) {
            operator.push(batch, handler);
        }
        return operator.finish(handler);
    }

    /**
     * The columns every input batch has.
     *
     * @return the schema given at construction
     */
    public Schema input() {
        return schema;
    }

    /**
     * The bucket function.
     *
     * @return the function given at construction
     */
    public BucketFunction function() {
        return function;
    }

    /**
     * Whether {@link #addInput} may be called: not finishing, no batch pending for pool memory, and
     * no output waiting to be taken.
     *
     * @return true when the operator takes a batch now
     */
    public boolean needsInput() {
        return !finishing && pending == null && output.isEmpty();
    }

    /**
     * Whether the operator waits for emitted batches to be released: a batch is pending for pool
     * memory and there is no output to take.
     *
     * @return true when only a {@link Batch#release()} lets it make progress
     */
    public boolean isBlocked() {
        return pending != null && output.isEmpty();
    }

    /**
     * Takes a batch. Routes it whole when its zonemap allows, otherwise splits as much of it into
     * bucket buffers as the pool allows; the rest waits until released batches give memory back.
     *
     * @param batch a batch of the input's columns; routed whole, it is passed on with the same vectors;
     *              split, it is read until its last row is in a bucket buffer
     * @throws IllegalStateException    when {@link #needsInput()} is false
     * @throws IllegalArgumentException when the batch's columns do not match the input schema, or
     *                                  routing is REQUIRED and the batch cannot be routed whole
     */
    public void addInput(final Batch batch) {
        if (!needsInput()) {
            throw new IllegalStateException(finishing
                    ? "addInput after finish: a finished shuffle takes no more batches"
                    : "addInput while needsInput() is false: take the output (getOutput) and release it first");
        }
        checkBatch(batch);
        final int rows = batch.rowCount();
        batchesIn++;
        rowsIn += rows;
        if (rows == 0) {
            return;
        }
        final int whole = wholeBucket(batch);
        if (whole >= 0) {
            wholeBatchRoutes++;
            ownerRowsOf(whole, rows);
            emitted(whole, rows);
            output.addLast(batch.withShuffleIdx(whole));
            return;
        }
        for (int k = 0; k < keyColumns.length; k++) {
            keyVectors[k] = batch.column(keyColumns[k]);
        }
        final boolean plainBatch = plain != null && keyVectors[0].nullCount() == 0;
        final BucketFunction split = plainBatch ? plain : function;
        grouped = plainBatch ? plainGrouped : perKeyGrouped;
        batchSlots = plainBatch ? bucketCount : slotCount;
        final boolean sorted = keyColumns.length == 1 && batch.sortedBy() == keyColumns[0];
        if (sorted || probeInOneBucket(split, rows)) {
            // Likely in one bucket (or runs): bucket every row first, so that a batch in one bucket is
            // found by the cheap scan, and group rows of one bucket, or sorted rows, as runs.
            split.buckets(keyVectors, rows, rowBuckets);
            Arrays.fill(keyVectors, null);
            final int only = sameBucket(rows);
            if (only >= 0 && only < bucketCount && routing != WholeBatchRouting.NEVER) {
                wholeBatchRoutes++;
                wholeAfterBucketing++;
                ownerRowsOf(only, rows);
                emitted(only, rows);
                output.addLast(batch.withShuffleIdx(only));
                return;
            }
            if (!((only >= 0 || sorted) && grouped.groupRuns(rowBuckets, rows))) {
                grouped.group(rowBuckets, rows);
            }
        } else {
            // The probe saw two buckets: each row goes to its bucket's list as its bucket is computed.
            split.group(keyVectors, rows, grouped);
            Arrays.fill(keyVectors, null);
        }
        splitBatches++;
        if (placement != null) {
            placeHeavyRows(plainBatch);
        }
        for (int c = 0; c < source.length; c++) {
            source[c] = batch.column(c);
        }
        pending = batch;
        pendingBucket = 0;
        pendingPosition = 0;
        scatterPending();
    }

    /**
     * The next emitted batch, or null when there is none now. The caller owns it and must
     * {@link Batch#release()} it when done (a no-op for whole-routed batches). Also resumes a batch
     * that was waiting for pool memory, and after {@link #finish()} emits the last partial buckets.
     *
     * @return a batch tagged with its bucket ({@link Batch#shuffleIdx()}), or null
     */
    public Batch getOutput() {
        if (output.isEmpty() && pending != null) {
            scatterPending();
        }
        if (output.isEmpty() && finishing && pending == null && !flushed) {
            flushAll();
        }
        return output.pollFirst();
    }

    /** Signals the end of input: every non-empty bucket buffer will be emitted. */
    public void finish() {
        finishing = true;
    }

    /**
     * Whether the input has ended and every batch has been taken.
     *
     * @return true once {@link #finish()} was called and {@link #getOutput()} has nothing more to give
     */
    public boolean isFinished() {
        return finishing && pending == null && flushed && output.isEmpty();
    }

    /**
     * Push style: adds a batch and hands every batch that becomes ready to the handler, releasing
     * each after the handler returns, until the whole batch is taken in.
     *
     * @param batch   a batch of the input's columns
     * @param handler receives each bucket batch that becomes ready, valid until it returns
     * @throws IllegalStateException when batches taken with {@link #getOutput()} and not released
     *                               hold the whole pool, so that the batch cannot be taken in
     */
    public void push(final Batch batch, final BatchHandler handler) {
        drain(handler);
        addInput(batch);
        drain(handler);
        if (pending != null) {
            throw stuck();
        }
    }

    /**
     * Push style: ends the input, hands every remaining batch to the handler and returns the counters.
     *
     * @param handler receives each remaining bucket batch, valid until it returns
     * @return the counters, final
     * @throws IllegalStateException when batches taken with {@link #getOutput()} and not released
     *                               hold the pool, so that the last batches cannot be emitted
     */
    public ShuffleCounters finish(final BatchHandler handler) {
        finish();
        drain(handler);
        if (!isFinished()) {
            throw stuck();
        }
        return counters();
    }

    private IllegalStateException stuck() {
        return new IllegalStateException(pool.lentCount() + " batches taken with getOutput() and not released hold "
                + "the shuffle pool (" + pool.allocatedBytes() + " of " + pool.budget() + " bytes): release them "
                + "before pushing more, or raise poolBytes");
    }

    private void drain(final BatchHandler handler) {
        Batch batch;
        while ((batch = getOutput()) != null) {
            try {
                handler.onBatch(batch);
            } finally {
                batch.release();
            }
        }
    }

    /**
     * A snapshot of the counters.
     *
     * @return the counts so far; later work does not change it
     */
    public ShuffleCounters counters() {
        return new ShuffleCounters(batchesIn, rowsIn, batchesOut, rowsOut, wholeBatchRoutes, wholeAfterBucketing,
                splitBatches, earlyFlushes, rowsPerBucket, pool.peakBytes());
    }

    private void checkBatch(final Batch batch) {
        if (batch.columnCount() != types.length) {
            throw new IllegalArgumentException("the batch has " + batch.columnCount() + " columns but the shuffle "
                    + "input has " + types.length + " (" + schema + "): give batches of the input's columns");
        }
        for (int c = 0; c < types.length; c++) {
            final ColumnType type = batch.column(c).type();
            // Decimals are scaled longs: the precision may differ between sources, the scale may not.
            if (type.kind() != types[c].kind() || type.scale() != types[c].scale()) {
                throw new IllegalArgumentException("column " + c + " of the batch is " + type + " but the shuffle "
                        + "input says " + schema.field(c) + ": give batches of the input's columns");
            }
        }
    }

    /** The bucket a batch provably lies in, or -1 to split it. */
    private int wholeBucket(final Batch batch) {
        if (routing == WholeBatchRouting.NEVER || keyColumns.length != 1) {
            return -1;
        }
        final int key = keyColumns[0];
        ZoneMap range = batch.zoneMap(key);
        if (range == null && batch.sortedBy() == key) {
            final ColumnVector vector = batch.column(key);
            if (vector.nullCount() == 0) {
                final long first = vector.key(0);
                final long last = vector.key(batch.rowCount() - 1);
                if (vector.type().kind().compareKeys(first, last) > 0) {
                    throw new IllegalArgumentException("a batch claims to be sorted by " + schema.field(key)
                            + " but its first key " + first + " is above its last key " + last + ": only declare "
                            + "batches sorted (withSortedBy) whose keys ascend");
                }
                range = new ZoneMap(first, last, 0, batch.rowCount());
            }
        }
        final int bucket = range == null ? -1 : function.bucketOfRange(range);
        if (bucket < 0 && routing == WholeBatchRouting.REQUIRED) {
            throw new IllegalArgumentException(range == null
                    ? "whole-batch routing is REQUIRED but a batch of " + batch.rowCount() + " rows has no zonemap for "
                        + "key column " + schema.field(key) + " and is not sorted by it without nulls: give batches "
                        + "their block's zonemaps (Batch.of(Block)) or use WHEN_PROVEN"
                    : "whole-batch routing is REQUIRED but a batch's key " + schema.field(key) + " spans buckets "
                        + "(zonemap " + range + "): the scan assignment must give this pipeline only blocks inside "
                        + "one bucket, or use WHEN_PROVEN");
        }
        return bucket;
    }

    /**
     * Whether the first rows of the batch (up to {@link #PROBE_ROWS}) share one bucket. Appending
     * every row of one bucket to one list would chain each row's cursor increment on the previous
     * one, so such a batch is bucketed into an array first instead; a batch whose first rows span
     * buckets cannot lie in one bucket and is grouped in one pass. Leaves the probed buckets in
     * {@link #rowBuckets}.
     */
    private boolean probeInOneBucket(final BucketFunction split, final int rows) {
        final int probe = Math.min(rows, PROBE_ROWS);
        split.buckets(keyVectors, probe, rowBuckets);
        return sameBucket(probe) >= 0;
    }

    /**
     * The bucket of every row when all {@code rows} rows share one, else -1. Compares blocks of 64 rows
     * at a time without a branch per row and stops at the first block that differs, so a batch that
     * splits costs a block or two.
     */
    private int sameBucket(final int rows) {
        final int[] buckets = rowBuckets;
        final int first = buckets[0];
        for (int from = 0; from < rows; from += 64) {
            final int to = Math.min(rows, from + 64);
            int differs = 0;
            for (int i = from; i < to; i++) {
                differs |= buckets[i] ^ first;
            }
            if (differs != 0) {
                return -1;
            }
        }
        return first;
    }

    /**
     * Takes the pending batch's rows into bucket buffers until done or the pool runs dry. Bucket by
     * bucket, each buffer reserves its rows (and copies their string bytes); then the fixed-width
     * values are gathered column by column across all buckets, so that one source column stays in
     * cache while every bucket takes its rows of it; then filled buffers are emitted.
     */
    private void scatterPending() {
        final int[] rows = grouped.rows();
        for (int slot = pendingBucket; slot < batchSlots; slot++) {
            final int b = slot < bucketCount ? slot : heavyTargets[slot - bucketCount];
            final int end = slotEnd(slot);
            int from = Math.max(pendingPosition, slotStart(slot));
            while (from < end) {
                BucketBuffer buffer = open[b];
                if (buffer == null) {
                    buffer = pool.take();
                    if (buffer == null) {
                        gatherPieces(rows);
                        suspend(slot, b, from, -1);
                        return;
                    }
                    buffer.assign(b);
                    open[b] = buffer;
                }
                int count = Math.min(end - from, buffer.room());
                if (hasStrings) {
                    count = fitStrings(buffer, rows, from, count);
                    if (count == 0) {
                        gatherPieces(rows);
                        suspend(slot, b, from, from);
                        return;
                    }
                }
                addPiece(buffer, from, count, buffer.reserve(source, rows, from, count));
                from += count;
                if (buffer.room() == 0) {
                    open[b] = null;
                    filled[filledCount++] = buffer;
                }
            }
            pendingPosition = 0;
        }
        gatherPieces(rows);
        pending = null;
        Arrays.fill(source, null);
    }

    /** Where a slot's rows start in the grouped rows: a bucket's, or its slice (or all) of the heavy rows. */
    private int slotStart(final int slot) {
        if (slot < bucketCount) {
            return grouped.start(slot);
        }
        return replicateHeavy ? grouped.start(bucketCount) : heavyCut[slot - bucketCount];
    }

    private int slotEnd(final int slot) {
        if (slot < bucketCount) {
            return grouped.end(slot);
        }
        return replicateHeavy ? grouped.end(bucketCount) : heavyCut[slot - bucketCount + 1];
    }

    /** Counts the split batch's rows of the other keys, then cuts its heavy rows into each bucket's slice. */
    private void placeHeavyRows(final boolean plainBatch) {
        for (int b = 0; b < bucketCount; b++) {
            placement.ownerRows(b, grouped.end(b) - grouped.start(b));
        }
        if (plainBatch) {
            return;
        }
        final int start = grouped.start(bucketCount);
        placement.place(grouped.end(bucketCount) - start, heavySlice);
        heavyCut[0] = start;
        for (int b = 0; b < bucketCount; b++) {
            heavyCut[b + 1] = heavyCut[b] + heavySlice[b];
        }
    }

    private void ownerRowsOf(final int bucket, final int rows) {
        if (placement != null) {
            placement.ownerRows(bucket, rows);
        }
    }

    private void addPiece(final BucketBuffer buffer, final int from, final int count, final int at) {
        if (pieces == pieceBuffers.length) {
            final int grown = 2 * pieces;
            pieceBuffers = Arrays.copyOf(pieceBuffers, grown);
            pieceFrom = Arrays.copyOf(pieceFrom, grown);
            pieceCount = Arrays.copyOf(pieceCount, grown);
            pieceAt = Arrays.copyOf(pieceAt, grown);
            filled = Arrays.copyOf(filled, grown);
        }
        pieceBuffers[pieces] = buffer;
        pieceFrom[pieces] = from;
        pieceCount[pieces] = count;
        pieceAt[pieces] = at;
        pieces++;
    }

    /** Gathers the fixed-width values of every piece, one column at a time, then emits the filled buffers. */
    private void gatherPieces(final int[] rows) {
        for (final int c : fixedColumns) {
            final ColumnVector vector = source[c];
            for (int q = 0; q < pieces; q++) {
                pieceBuffers[q].gather(c, vector, rows, pieceFrom[q], pieceCount[q], pieceAt[q]);
            }
        }
        Arrays.fill(pieceBuffers, 0, pieces, null);
        pieces = 0;
        for (int f = 0; f < filledCount; f++) {
            emit(filled[f]);
            filled[f] = null;
        }
        filledCount = 0;
    }

    /**
     * Shrinks {@code count} to the rows whose string bytes fit the buffer, growing its string
     * columns as far as the budget allows first. Zero when not even the next row fits.
     */
    private int fitStrings(final BucketBuffer buffer, final int[] rows, final int from, final int count) {
        int fit = count;
        for (int c = 0; c < types.length && fit > 0; c++) {
            if (types[c].kind() != TypeKind.STRING) {
                continue;
            }
            final StringVector vector = (StringVector) source[c];
            final long needed = BucketBuffer.stringBytes(vector, rows, from, fit);
            if (needed > buffer.freeStringBytes(c)
                    && !pool.growStringBytes(buffer, c, buffer.usedStringBytes(c) + needed)) {
                fit = BucketBuffer.rowsFitting(vector, rows, from, fit, buffer.freeStringBytes(c));
            }
        }
        return fit;
    }

    /**
     * Leaves the rest of the pending batch for later and makes room: if no output waits to be taken,
     * the fullest partial bucket is emitted early, so that releasing it refills the pool.
     *
     * @param slot       the slot being split ({@link #scatterPending})
     * @param bucket     the bucket that slot fills
     * @param stalledRow the row (position in the row list) whose string bytes did not fit,
     *                   or -1 when a buffer could not be had
     */
    private void suspend(final int slot, final int bucket, final int position, final int stalledRow) {
        pendingBucket = slot;
        pendingPosition = position;
        if (!output.isEmpty()) {
            return;
        }
        BucketBuffer fullest = null;
        for (final BucketBuffer buffer : open) {
            if (buffer != null && buffer.size() > 0 && (fullest == null || buffer.size() > fullest.size())) {
                fullest = buffer;
            }
        }
        if (fullest != null) {
            earlyFlushes++;
            open[fullest.bucket()] = null;
            emit(fullest);
            return;
        }
        // Checked before the stalled buffer goes back: a batch released on another thread since the pool
        // said no makes room, and then the operator retries instead of failing.
        final boolean stuck = pool.isStuck();
        final BucketBuffer stalled = open[bucket];
        if (stalled != null) {
            // Empty: give it back, so that only released batches hold memory while the operator waits.
            open[bucket] = null;
            pool.giveBack(stalled);
        }
        if (stuck) {
            if (stalledRow >= 0) {
                throw new IllegalStateException("a row of the batch needs more string bytes than the whole shuffle "
                        + "pool holds (" + pool.budget() + " bytes for columns " + schema + "): raise poolBytes");
            }
            throw new IllegalStateException("the shuffle pool (" + pool.budget() + " bytes) has no room for a bucket "
                    + "buffer although nothing holds it: raise poolBytes");
        }
    }

    /** Emits a buffer no longer open. */
    private void emit(final BucketBuffer buffer) {
        emitted(buffer.bucket(), buffer.size());
        output.addLast(pool.lend(buffer));
    }

    private void emitted(final int bucket, final int rows) {
        batchesOut++;
        rowsOut += rows;
        rowsPerBucket[bucket] += rows;
    }

    private void flushAll() {
        for (int b = 0; b < bucketCount; b++) {
            final BucketBuffer buffer = open[b];
            if (buffer != null) {
                open[b] = null;
                if (buffer.size() > 0) {
                    emit(buffer);
                } else {
                    pool.giveBack(buffer);
                }
            }
        }
        flushed = true;
    }
}
