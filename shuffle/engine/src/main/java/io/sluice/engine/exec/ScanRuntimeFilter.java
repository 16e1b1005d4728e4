package io.sluice.engine.exec;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.filter.RuntimeFilter;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.ZoneMap;
import io.sluice.shuffle.RangeBucketFunction;
import io.sluice.shuffle.operator.Batch;
import java.util.List;

/**
 * One runtime filter as a probe scan applies it, before the rows leave the scan (so before any
 * shuffle): a block whose zonemap on the key lies outside the filter's min/max or IN list is skipped
 * unread, and the rows of the blocks read are tested against every kind. A per-bucket filter is looked
 * up by the bucket the scan reads (a colocated scan) or, row by row, by the bucket the join's range
 * function gives the key.
 */
public final class ScanRuntimeFilter {
    private final RuntimeFilterHandle handle;
    private final List<Expr> keys;
    private final RowType rowType;
    private final boolean integerKey;
    private final int keyColumn;
    private final RangeBucketFunction function;

    /**
     * @param keys      the probe key columns of the scan's output, in the build keys' order
     * @param keyColumn the scan's output column of a single key, for zonemaps and buckets; -1 for several
     * @param function  for a per-bucket filter on a scan that does not read one bucket per morsel: the join's
     *                  range function, giving each row its bucket; else null
     */
    public ScanRuntimeFilter(final RuntimeFilterHandle handle, final List<Expr> keys, final RowType rowType,
                             final int keyColumn, final RangeBucketFunction function) {
        if (handle.scope() == FilterScope.PER_BUCKET && function == null && keyColumn < 0) {
            throw new IllegalArgumentException(handle + " is per bucket: it needs a key column and the join's range"
                    + " function, or a colocated scan");
        }
        this.handle = handle;
        this.keys = List.copyOf(keys);
        this.rowType = rowType;
        this.integerKey = RuntimeFilterBuild.integerKey(keys, rowType);
        this.keyColumn = keyColumn;
        this.function = function;
    }

    public RuntimeFilterHandle handle() {
        return handle;
    }

    /** The probe key columns of the scan's output. */
    List<Expr> keys() {
        return keys;
    }

    /** The scan output column of a single key, or -1. */
    int keyColumn() {
        return keyColumn;
    }

    /** One worker's instance, with its own scratch. */
    Applier applier() {
        return new Applier();
    }

    /** A worker's test of blocks and rows; not thread-safe. */
    final class Applier {
        private final KeyColumns columns = new KeyColumns(keys, rowType);
        private final int[] rowBuckets = new int[Block.MAX_ROWS];
        private final ColumnVector[] keyVector = new ColumnVector[1];
        private boolean waited;

        /**
         * The scan output column of the filter's key when it is one column, or -1 for a key of several (whose
         * first column {@link #keyColumn} also names, for zonemaps and buckets).
         */
        int keyColumn() {
            return keys.size() == 1 ? keyColumn : -1;
        }

        /** Waits for the filter before the worker's first block. */
        void awaitOnce(final Cancellation cancellation) {
            if (!waited) {
                waited = true;
                handle.await(cancellation);
            }
        }

        /**
         * The share of the scan's rows the filter is expected to pass, for testing the most selective filter
         * first: at most its build rows (a bound on its distinct keys) over the values the probe key's zonemaps
         * span, and at most the part of that span its min/max covers. 1 for a filter that is off or has not
         * arrived; 0.5 when nothing tells (a hashed key, or no zonemaps).
         */
        double passEstimate(final ZoneMap[] zoneMaps) {
            final RuntimeFilter[] filters = handle.filters();
            if (filters == null) {
                return 1;
            }
            long low = Long.MAX_VALUE;
            long high = Long.MIN_VALUE;
            for (int b = 0; zoneMaps != null && b < zoneMaps.length; b++) {
                if (zoneMaps[b].hasValues()) {
                    low = Math.min(low, zoneMaps[b].min());
                    high = Math.max(high, zoneMaps[b].max());
                }
            }
            if (!integerKey || low > high) {
                return 0.5;
            }
            long rows = 0;
            long filterLow = Long.MAX_VALUE;
            long filterHigh = Long.MIN_VALUE;
            for (final RuntimeFilter f : filters) {
                if (f != null && f.range() != null) {
                    rows += f.buildRows();
                    filterLow = Math.min(filterLow, f.range().min());
                    filterHigh = Math.max(filterHigh, f.range().max());
                }
            }
            final double span = (double) high - low + 1;
            final double covered = Math.max(0, (double) Math.min(high, filterHigh) - Math.max(low, filterLow) + 1);
            return Math.min(1, Math.min(rows, covered) / span);
        }

        /**
         * Whether a block can be skipped: its key zonemap (no nulls) lies outside the filter of the bucket
         * a colocated scan reads ({@code morselBucket}, ignored with a range function) or of every bucket
         * the zonemap overlaps.
         */
        boolean skips(final ZoneMap zoneMap, final int morselBucket) {
            final int bucket = function != null ? -1 : morselBucket;
            final RuntimeFilter[] filters = handle.filters();
            if (filters == null || !integerKey || zoneMap == null || !zoneMap.hasValues() || zoneMap.nullCount() > 0) {
                return false;
            }
            final boolean skip;
            if (handle.scope() != FilterScope.PER_BUCKET) {
                skip = !filters[0].mayOverlap(zoneMap.min(), zoneMap.max());
            } else if (bucket >= 0) {
                skip = filters[bucket] != null && !filters[bucket].mayOverlap(zoneMap.min(), zoneMap.max());
            } else {
                boolean none = true;
                final int high = function.bucket(zoneMap.max());
                for (int b = function.bucket(zoneMap.min()); b <= high && none; b++) {
                    none = filters[b] != null && !filters[b].mayOverlap(zoneMap.min(), zoneMap.max());
                }
                skip = none;
            }
            if (skip) {
                handle.skipped();
            }
            return skip;
        }

        /**
         * Keeps, of the {@code count} rows of a batch listed in {@code rows}, those the filter passes, in order, at
         * the front of {@code rows}, and returns how many; {@code morselBucket} as for {@link #skips}.
         */
        int retain(final Batch batch, final int[] rows, final int count, final int morselBucket) {
            final RuntimeFilter[] filters = handle.filters();
            if (filters == null || count == 0) {
                return count;
            }
            final int bucket = function != null ? -1 : morselBucket;
            final long[] values;
            final long[] hashes;
            if (integerKey) {
                values = columns.values(batch, 0);
                hashes = null;
            } else {
                // Only the listed rows' hashes: an earlier filter (the first key column's) may have kept few.
                if (count < batch.rowCount()) {
                    columns.evaluateRows(batch, rows, count);
                } else {
                    columns.evaluate(batch);
                }
                values = null;
                hashes = columns.hashes;
            }
            final int kept;
            if (handle.scope() != FilterScope.PER_BUCKET || bucket >= 0) {
                final RuntimeFilter f = filters[handle.scope() == FilterScope.PER_BUCKET ? bucket : 0];
                if (f == null) {
                    return count;
                }
                // As many rows listed as the batch holds: every row, 0..n-1 (a selection lists rows ascending).
                kept = !integerKey ? f.retainHashes(hashes, rows, count)
                        : count == batch.rowCount() ? f.retainAllValues(values, rows, count)
                        : f.retainValues(values, rows, count);
            } else {
                keyVector[0] = batch.column(keyColumn);
                function.buckets(keyVector, batch.rowCount(), rowBuckets);
                int k = 0;
                for (int j = 0; j < count; j++) {
                    final int row = rows[j];
                    final int b = rowBuckets[row];
                    final RuntimeFilter f = b >= 0 && b < filters.length ? filters[b] : null;
                    rows[k] = row;
                    k += f == null || (integerKey ? f.mayContainValue(values[row]) : f.mayContainHash(hashes[row]))
                            ? 1 : 0;
                }
                kept = k;
            }
            handle.counted(count, kept);
            return kept;
        }
    }

    @Override
    public String toString() {
        return handle.toString();
    }
}
