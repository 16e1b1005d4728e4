package io.sluice.engine.exec;

import io.sluice.engine.expr.Evaluator;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One worker's reading of a {@link TableScan}'s blocks, late-materialized: the columns the row filter
 * and the runtime filters test are read first, into arrays the worker reuses from block to block;
 * the other projected columns are read only for the rows that pass, straight from the stored block
 * ({@link BlockTable#readRows}), and not at all for a block where none does. A block whose rows all
 * pass is the batch of the whole block, with its zonemaps and stored bytes. Columns the operator
 * above drops ({@link TableScan#dropAbove}) hold placeholders instead of the passing rows' values,
 * and are not read unless a filter tests them. Not thread-safe.
 */
final class ScanReading {
    private static final long[] NO_LONGS = new long[Block.MAX_ROWS];
    private static final int[] NO_INTS = new int[Block.MAX_ROWS + 1];
    private static final byte[] NO_BYTES = new byte[0];
    /** Below one row in this many kept, a column is read row by row; above, whole (a copy beats the gathers). */
    private static final int SPARSE_FRACTION = 8;

    private final TableScan scan;
    private final BlockTable table;
    private final int[] projection;
    private final Evaluator predicate;
    private final Probing probing;
    private final int[] scratch = new int[Block.MAX_ROWS];
    /** Output positions of the tested columns, and their table positions. */
    private final int[] tested;
    private final int[] testedTable;
    /** Output positions of the other columns, and their table positions. */
    private final int[] untested;
    private final int[] untestedTable;
    /** The tested columns as last read: their arrays are overwritten by the next block's. */
    private final ColumnVector[] testedVectors;
    private final ColumnVector[] untestedVectors;
    /** Per output column whether the operator above drops it ({@link TableScan#dropAbove}), or null. */
    private final boolean[] dropped;
    /**
     * For a scan whose row filter reads columns no runtime filter does: the runtime filters' columns, the
     * row filter's own and the rest (not dropped), by output and by table position; null otherwise.
     */
    private final int[] probed;
    private final int[] probedTable;
    private final int[] filterOnly;
    private final int[] filterOnlyTable;
    private final int[] rest;
    private final int[] restTable;
    private final ColumnVector[] probedVectors;
    private final ColumnVector[] filterOnlyVectors;
    private final ColumnVector[] restVectors;
    /** The rows the row filter passes, by position in the batch it tested. */
    private final int[] chosen = new int[Block.MAX_ROWS];
    /** Scratch of {@link #probe} and {@link #readAt}: which key columns a block has read, one column to read. */
    private final boolean[] keyRead;
    private final int[] oneColumn = new int[1];
    private final ColumnVector[] oneVector = new ColumnVector[1];

    /**
     * @param predicate this worker's instance of the scan's row filter, or null
     * @param tested    the output columns the row filter and the runtime filters read, ascending
     */
    ScanReading(final TableScan scan, final Evaluator predicate, final int[] tested) {
        this.scan = scan;
        this.table = scan.table();
        this.projection = scan.projection();
        this.predicate = predicate;
        this.probing = scan.runtimeFilters().isEmpty() ? null : new Probing(scan);
        this.dropped = scan.dropped();
        this.keyRead = new boolean[projection.length];
        final boolean lazy = tested.length > 0 && tested.length < projection.length;
        this.tested = lazy ? tested : new int[0];
        int others = 0;
        for (int c = 0, t = 0; lazy && c < projection.length; c++) {
            if (t < tested.length && tested[t] == c) {
                t++;
            } else if (!isDropped(c)) {
                others++;
            }
        }
        this.untested = new int[others];
        for (int c = 0, t = 0, u = 0; lazy && c < projection.length; c++) {
            if (t < tested.length && tested[t] == c) {
                t++;
            } else if (!isDropped(c)) {
                untested[u++] = c;
            }
        }
        this.testedTable = tablePositions(this.tested);
        this.untestedTable = tablePositions(untested);
        this.testedVectors = new ColumnVector[this.tested.length];
        this.untestedVectors = new ColumnVector[untested.length];
        final int[] byFilters = scan.probedColumns();
        final int[] byRowFilter = Arrays.stream(tested).filter(c -> Arrays.binarySearch(byFilters, c) < 0).toArray();
        final boolean staged = predicate != null && probing != null && byFilters.length > 0 && byRowFilter.length > 0;
        this.probed = staged ? byFilters : null;
        this.filterOnly = staged ? byRowFilter : null;
        this.rest = staged ? java.util.stream.IntStream.range(0, projection.length)
                .filter(c -> Arrays.binarySearch(tested, c) < 0 && !isDropped(c)).toArray() : null;
        this.probedTable = staged ? tablePositions(probed) : null;
        this.filterOnlyTable = staged ? tablePositions(filterOnly) : null;
        this.restTable = staged ? tablePositions(rest) : null;
        this.probedVectors = staged ? new ColumnVector[probed.length] : null;
        this.filterOnlyVectors = staged ? new ColumnVector[filterOnly.length] : null;
        this.restVectors = staged ? new ColumnVector[rest.length] : null;
    }

    private boolean isDropped(final int output) {
        return dropped != null && dropped[output];
    }

    private int[] tablePositions(final int[] outputs) {
        final int[] positions = new int[outputs.length];
        for (int i = 0; i < outputs.length; i++) {
            positions[i] = projection[outputs[i]];
        }
        return positions;
    }

    /**
     * The rows of one block that pass the row filter and the runtime filters, or null when none does
     * or the runtime filters skip the block unread.
     *
     * @param bucket the bucket a colocated scan reads the block for, else -1
     */
    Batch read(final int block, final int bucket) {
        if (probing != null && probing.skips(block, bucket)) {
            return null;
        }
        if (probed != null) {
            return readStaged(block, bucket);
        }
        if (tested.length == 0) {
            return readWhole(block, bucket);
        }
        final int n = table.blockRowCount(block);
        final ColumnVector[] columns = placeholders(n);
        final int count;
        if (predicate == null && probing != null && probing.byKeyColumns(tested)) {
            count = probe(block, n, tested, testedTable, testedVectors, columns, bucket);
        } else {
            table.readColumns(block, testedTable, testedVectors);
            for (int i = 0; i < tested.length; i++) {
                columns[tested[i]] = testedVectors[i];
            }
            count = select(Batch.of(columns), bucket);
        }
        if (count == 0) {
            return null;
        }
        if (count == n && dropped == null) {
            // Every row passes: the tested vectors become the batch's, and the next block gets new arrays.
            table.readColumns(block, untestedTable, untestedVectors);
            for (int i = 0; i < untested.length; i++) {
                columns[untested[i]] = untestedVectors[i];
                untestedVectors[i] = null;
            }
            final ZoneMap[] zoneMaps = new ZoneMap[projection.length];
            for (int c = 0; c < projection.length; c++) {
                zoneMaps[c] = table.zoneMap(block, projection[c]);
            }
            Arrays.fill(testedVectors, null);
            return sortedBy(block, new Batch(columns, zoneMaps, Batch.NOT_SORTED)
                    .withStoredBlock(table.storedBlock(block, projection)));
        }
        for (int c = 0; c < projection.length; c++) {
            columns[c] = placeholder(table.schema().type(projection[c]), count);
        }
        for (int i = 0; i < tested.length; i++) {
            if (isDropped(tested[i])) {
                continue;
            }
            if (count == n) {
                // Every row passes (a batch with placeholders, not the stored block): the vector is the batch's now.
                columns[tested[i]] = testedVectors[i];
                testedVectors[i] = null;
            } else {
                columns[tested[i]] = Vectors.gatherPresent(testedVectors[i], scratch, count);
            }
        }
        if (untested.length == 0) {
            return sortedBy(block, Batch.of(columns));
        }
        read(block, untestedTable, count, n, untestedVectors);
        for (int i = 0; i < untested.length; i++) {
            columns[untested[i]] = untestedVectors[i];
            untestedVectors[i] = null;
        }
        return sortedBy(block, Batch.of(columns));
    }

    /**
     * A block read in three steps: the runtime filters' columns, tested first (they keep few rows where a
     * join's build is selective: Q4's orders of one quarter among all lineitem rows); the row filter's own
     * columns for the rows they keep, tested next; the other columns for the rows both keep.
     */
    private Batch readStaged(final int block, final int bucket) {
        final int n = table.blockRowCount(block);
        final ColumnVector[] columns = placeholders(n);
        final int count;
        if (probing.byKeyColumns(probed)) {
            count = probe(block, n, probed, probedTable, probedVectors, columns, bucket);
        } else {
            table.readColumns(block, probedTable, probedVectors);
            for (int i = 0; i < probed.length; i++) {
                columns[probed[i]] = probedVectors[i];
            }
            for (int i = 0; i < n; i++) {
                scratch[i] = i;
            }
            count = probing.retain(Batch.of(columns), scratch, n, bucket);
        }
        if (count == 0) {
            return null;
        }
        // Most rows kept: the row filter's columns read whole and tested whole cost less than gathered.
        final boolean wholeBlock = count * 2 > n;
        final ColumnVector[] tested;
        if (wholeBlock) {
            read(block, filterOnlyTable, n, n, filterOnlyVectors);
            for (int i = 0; i < filterOnly.length; i++) {
                columns[filterOnly[i]] = filterOnlyVectors[i];
            }
            tested = columns;
        } else {
            read(block, filterOnlyTable, count, n, filterOnlyVectors);
            tested = placeholders(count);
            for (int i = 0; i < probed.length; i++) {
                tested[probed[i]] = Vectors.gatherPresent(probedVectors[i], scratch, count);
            }
            for (int i = 0; i < filterOnly.length; i++) {
                tested[filterOnly[i]] = filterOnlyVectors[i];
                filterOnlyVectors[i] = null;
            }
        }
        final boolean[] pass = predicate.trues(Batch.of(tested));
        int kept = 0;
        for (int j = 0; j < count; j++) {
            final int at = wholeBlock ? scratch[j] : j;
            scratch[kept] = scratch[j];
            chosen[kept] = at;
            kept += pass[at] ? 1 : 0;
        }
        if (kept == 0) {
            return null;
        }
        final int testedRows = wholeBlock ? n : count;
        final ColumnVector[] out = placeholders(kept);
        for (final int[] side : new int[][] {probed, filterOnly}) {
            for (final int c : side) {
                if (!isDropped(c)) {
                    out[c] = kept == testedRows ? tested[c] : Vectors.gatherPresent(tested[c], chosen, kept);
                }
            }
        }
        if (wholeBlock && kept == n) {
            // Every row passes: the block's arrays are the batch's now, and the next block reads into new ones.
            Arrays.fill(probedVectors, null);
            Arrays.fill(filterOnlyVectors, null);
        }
        read(block, restTable, kept, n, restVectors);
        for (int i = 0; i < rest.length; i++) {
            out[rest[i]] = restVectors[i];
            restVectors[i] = null;
        }
        return sortedBy(block, Batch.of(out));
    }

    /**
     * Reads and tests the runtime filters' key columns of a block one filter at a time, in the order
     * {@link Probing} tests them (most selective first): a filter's column whole while every row is
     * kept (or most are), else only the rows the filters before it kept, each at its position in the block
     * (TPC-H Q8's lineitem scan reads l_partkey whole and l_orderkey and l_suppkey for the 0.7% of rows
     * its parts keep). The columns no filter tests now (one turned off) are read for the kept rows last.
     * Lists the kept rows in {@link #scratch} and returns how many; a column not read (no row kept) is
     * left as it was.
     *
     * @param outputs   the key columns' output positions; {@code positions} their table positions, and
     *                  {@code vectors} the arrays they are read into (and may reuse), set in {@code columns}
     */
    private int probe(final int block, final int n, final int[] outputs, final int[] positions,
                      final ColumnVector[] vectors, final ColumnVector[] columns, final int bucket) {
        for (int i = 0; i < n; i++) {
            scratch[i] = i;
        }
        int count = n;
        final boolean[] read = keyRead;
        Arrays.fill(read, 0, outputs.length, false);
        for (int a = 0; a < probing.size() && count > 0; a++) {
            final int i = Arrays.binarySearch(outputs, probing.keyColumn(a));
            if (!read[i]) {
                readAt(block, positions[i], count, n, vectors, i);
                columns[outputs[i]] = vectors[i];
                read[i] = true;
            }
            count = probing.retain(a, Batch.of(columns), scratch, count, bucket);
        }
        for (int i = 0; i < outputs.length && count > 0; i++) {
            if (!read[i]) {
                readAt(block, positions[i], count, n, vectors, i);
                columns[outputs[i]] = vectors[i];
            }
        }
        return count;
    }

    /**
     * Reads table column {@code position} of a block into {@code vectors[i]}: whole, or, when fewer than one
     * row in {@link #SPARSE_FRACTION} is kept, only the {@code count} rows listed in {@link #scratch}, each at
     * its position of an {@code n}-row vector (the other positions hold stale values no listed row reads).
     */
    private void readAt(final int block, final int position, final int count, final int n,
                        final ColumnVector[] vectors, final int i) {
        final int[] column = oneColumn;
        final ColumnVector[] into = oneVector;
        column[0] = position;
        into[0] = vectors[i];
        final TypeKind kind = table.schema().type(position).kind();
        final boolean spreads = kind == TypeKind.INT64 || kind == TypeKind.DECIMAL || kind == TypeKind.INT32
                || kind == TypeKind.DATE;
        if (count * SPARSE_FRACTION < n && spreads && table.readRows(block, column, scratch, count, into)) {
            vectors[i] = spread(into[0], vectors[i], count, n);
        } else {
            into[0] = vectors[i];
            table.readColumns(block, column, into);
            vectors[i] = into[0];
        }
        into[0] = null;
    }

    /**
     * The {@code count} rows of {@code listed} placed at the positions {@link #scratch} lists, in an
     * {@code n}-row vector over the array of {@code reuse} where it is large enough.
     */
    private ColumnVector spread(final ColumnVector listed, final ColumnVector reuse, final int count, final int n) {
        long[] nulls = null;
        if (listed.nullCount() > 0) {
            nulls = new long[NullMask.words(n)];
            for (int j = 0; j < count; j++) {
                if (listed.isNull(j)) {
                    NullMask.setNull(nulls, scratch[j]);
                }
            }
        }
        if (listed instanceof LongVector v) {
            final long[] values = reuse instanceof LongVector r && r.values().length >= n ? r.values() : new long[n];
            final long[] from = v.values();
            for (int j = 0; j < count; j++) {
                values[scratch[j]] = from[j];
            }
            return new LongVector(v.type(), values, n, nulls);
        }
        final IntVector v = (IntVector) listed;
        final int[] values = reuse instanceof IntVector r && r.values().length >= n ? r.values() : new int[n];
        final int[] from = v.values();
        for (int j = 0; j < count; j++) {
            values[scratch[j]] = from[j];
        }
        return new IntVector(v.type(), values, n, nulls);
    }

    /** Reads table columns of the {@code count} rows listed in {@link #scratch} of a block of {@code n} rows. */
    private void read(final int block, final int[] columns, final int count, final int n, final ColumnVector[] into) {
        if (columns.length == 0) {
            return;
        }
        if (count == n) {
            table.readColumns(block, columns, into);
        } else if (!table.readRows(block, columns, scratch, count, into)) {
            table.readColumns(block, columns, into);
            for (int i = 0; i < columns.length; i++) {
                into[i] = Vectors.gatherPresent(into[i], scratch, count);
            }
        }
    }

    private ColumnVector[] placeholders(final int n) {
        final ColumnVector[] columns = new ColumnVector[projection.length];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = placeholder(table.schema().type(projection[c]), n);
        }
        return columns;
    }

    /** Every projected column of a block read whole, then filtered (a scan that tests all or none of them). */
    private Batch readWhole(final int block, final int bucket) {
        // The block's rows as read carry its stored bytes, which dispatch sends instead of encoding them
        // again as long as no filter drops a row (a selection of every row is the batch itself).
        final Batch batch = sortedBy(block, Batch.of(table.readBlock(block, projection))
                .withStoredBlock(table.storedBlock(block, projection)));
        if (predicate == null && probing == null) {
            return batch;
        }
        final int count = select(batch, bucket);
        if (dropped == null || count == 0 || count == batch.rowCount()) {
            return Vectors.select(batch, scratch, count);
        }
        final ColumnVector[] kept = new ColumnVector[projection.length];
        for (int c = 0; c < kept.length; c++) {
            kept[c] = dropped[c] ? placeholder(table.schema().type(projection[c]), count)
                    : Vectors.gatherPresent(batch.column(c), scratch, count);
        }
        return sortedBy(block, Batch.of(kept));
    }

    /**
     * Lists in {@link #scratch}, ascending, the rows of {@code batch} that pass the row filter and the
     * runtime filters, and returns how many; {@code bucket} as for {@link #read}.
     */
    private int select(final Batch batch, final int bucket) {
        final int n = batch.rowCount();
        int count = 0;
        if (predicate == null) {
            for (int i = 0; i < n; i++) {
                scratch[i] = i;
            }
            count = n;
        } else {
            final boolean[] pass = predicate.trues(batch);
            for (int i = 0; i < n; i++) {
                scratch[count] = i;
                count += pass[i] ? 1 : 0;
            }
        }
        return probing == null ? count : probing.retain(batch, scratch, count, bucket);
    }

    /**
     * A column nothing reads while the rows are chosen, or one the operator above drops: {@code n} rows
     * over shared, zero arrays.
     */
    private static ColumnVector placeholder(final ColumnType type, final int n) {
        return switch (type.kind()) {
            case INT64, DECIMAL -> new LongVector(type, NO_LONGS, n, null);
            case DECIMAL128 -> new Decimal128Vector(type, NO_LONGS, NO_LONGS, n, null);
            case INT32, DATE -> new IntVector(type, NO_INTS, n, null);
            default -> StringVector.plain(NO_INTS, NO_BYTES, n, null);
        };
    }

    /**
     * A block's batch marked sorted by the table's sort key when it is projected and has no NULL in
     * the block: its rows ascend by it, so a shuffle on that key can route a filtered part of the
     * block whole by its first and last keys (a filter keeps the order, not the zonemap).
     */
    private Batch sortedBy(final int block, final Batch batch) {
        final int sorted = scan.sortedColumn();
        return sorted >= 0 && batch.rowCount() > 0
                && table.zoneMap(block, projection[sorted]).nullCount() == 0 ? batch.withSortedBy(sorted) : batch;
    }

    /**
     * One worker's runtime filters: it waits for them before its first block, then tests them most
     * selective first: the first filter tests every row of a block, the next only the rows it kept.
     * The order starts from each filter's estimate ({@link ScanRuntimeFilter.Applier#passEstimate}) and
     * follows the shares the filters pass on this worker's rows, checked every {@link #REORDER_BLOCKS}
     * blocks (TPC-H Q8's lineitem scan meets 1,451 parts before 10,000 suppliers, each of which passes).
     */
    private static final class Probing {
        /** Blocks read between two looks at the order. */
        static final int REORDER_BLOCKS = 8;
        /** Rows a filter is tested on before its own share replaces its estimate. */
        static final long MEASURED_ROWS = 4096;

        /** One filter, with the rows it tested and passed on this worker. */
        private static final class Filter {
            final ScanRuntimeFilter.Applier applier;
            final ZoneMap[] zoneMaps;
            double estimate;
            long tested;
            long passed;

            Filter(final ScanRuntimeFilter.Applier applier, final ZoneMap[] zoneMaps) {
                this.applier = applier;
                this.zoneMaps = zoneMaps;
            }

            double share() {
                return tested >= MEASURED_ROWS ? (double) passed / tested : estimate;
            }

            int retain(final Batch batch, final int[] rows, final int count, final int bucket) {
                final int kept = applier.retain(batch, rows, count, bucket);
                tested += count;
                passed += kept;
                return kept;
            }
        }

        private final Filter[] filters;
        private boolean waited;
        private int blocks;

        Probing(final TableScan scan) {
            final List<ScanRuntimeFilter> all = scan.runtimeFilters();
            filters = new Filter[all.size()];
            for (int i = 0; i < filters.length; i++) {
                filters[i] = new Filter(all.get(i).applier(), scan.runtimeFilterZoneMaps().get(i));
            }
        }

        boolean skips(final int block, final int bucket) {
            if (!waited) {
                waited = true;
                for (final Filter f : filters) {
                    f.applier.awaitOnce(Cancellation.never());
                    f.estimate = f.applier.passEstimate(f.zoneMaps);
                }
            }
            if (blocks++ % REORDER_BLOCKS == 0) {
                Arrays.sort(filters, Comparator.comparingDouble(Filter::share));
            }
            for (final Filter f : filters) {
                if (f.zoneMaps != null && f.applier.skips(f.zoneMaps[block], bucket)) {
                    return true;
                }
            }
            return false;
        }

        /** The filters, in the order they are tested. */
        int size() {
            return filters.length;
        }

        /** The scan output column filter {@code a} tests, or -1 for a key of several columns. */
        int keyColumn(final int a) {
            return filters[a].applier.keyColumn();
        }

        /**
         * Whether every filter tests a single key column and each of them is among {@code outputs}, so that the
         * columns can be read filter by filter ({@link ScanReading#probe}).
         */
        boolean byKeyColumns(final int[] outputs) {
            for (final Filter f : filters) {
                if (f.applier.keyColumn() < 0 || Arrays.binarySearch(outputs, f.applier.keyColumn()) < 0) {
                    return false;
                }
            }
            return true;
        }

        /** Filter {@code a}'s test of the {@code count} listed rows, as {@link #retain} applies each. */
        int retain(final int a, final Batch batch, final int[] rows, final int count, final int bucket) {
            return filters[a].retain(batch, rows, count, bucket);
        }

        int retain(final Batch batch, final int[] rows, final int count, final int bucket) {
            int kept = count;
            for (int i = 0; i < filters.length && kept > 0; i++) {
                kept = filters[i].retain(batch, rows, kept, bucket);
            }
            return kept;
        }
    }
}
