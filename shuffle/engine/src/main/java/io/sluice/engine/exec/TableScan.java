package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.shuffle.operator.Batch;
import io.sluice.zonemap.BlockPruner;
import io.sluice.zonemap.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/**
 * Scans a stored table: one morsel per block that the zonemap predicates leave in
 * ({@link BlockPruner}), reading only the projected columns, then keeping the rows that pass the
 * row filter. A batch that passes whole keeps its block's zonemaps and its stored bytes
 * ({@link BlockTable#storedBlock}).
 */
public final class TableScan implements Source {
    private final BlockTable table;
    private final int[] projection;
    /** The projected column the table is sorted by, or -1. */
    private final int sortedColumn;
    private final RowType rowType;
    private final Expr filter;
    private final int[] blocks;
    private final List<ScanRuntimeFilter> runtimeFilters = new ArrayList<>();
    private final List<ZoneMap[]> runtimeFilterZoneMaps = new ArrayList<>();

    /**
     * @param columns the columns to read, by name, in output order
     * @param pruning zonemap predicates (all must hold); blocks that cannot match are skipped
     * @param filter  a row predicate over the projected columns, or null
     */
    public TableScan(final BlockTable table, final List<String> columns, final List<Predicate> pruning, final Expr filter) {
        this(table, columns, pruning, filter, 0, 1);
    }

    /**
     * The share of CN {@code cn} of {@code cnCount} in a scan whose blocks are spread over the CNs
     * round-robin (a SOURCE fragment without colocation): block {@code b} is read on CN {@code b % cnCount}.
     */
    public TableScan(final BlockTable table, final List<String> columns, final List<Predicate> pruning, final Expr filter,
                     final int cn, final int cnCount) {
        this.table = table;
        this.projection = new int[columns.size()];
        final List<DataType> types = new ArrayList<>();
        for (int i = 0; i < projection.length; i++) {
            final int c = table.schema().indexOf(columns.get(i));
            if (c < 0) {
                throw new IllegalArgumentException("table '" + table.name() + "' has no column '" + columns.get(i)
                        + "': its columns are " + table.schema().names());
            }
            projection[i] = c;
            types.add(DataType.of(table.schema().type(c)));
        }
        this.rowType = new RowType(columns, types);
        this.sortedColumn = table.sortKey() == null ? -1 : columns.indexOf(table.sortKey());
        this.filter = filter;
        RoaringBitmap keep = RoaringBitmap.bitmapOfRange(0, table.blockCount());
        for (final Predicate p : pruning) {
            keep = RoaringBitmap.and(keep, BlockPruner.prune(p, table));
        }
        if (cnCount > 1) {
            final RoaringBitmap share = new RoaringBitmap();
            for (int b = cn; b < table.blockCount(); b += cnCount) {
                share.add(b);
            }
            keep.and(share);
        }
        this.blocks = keep.toArray();
        if (filter != null) {
            filter.bind(rowType);
        }
    }

    /**
     * A block's batch marked sorted by the table's sort key when it is projected and has no NULL in
     * the block: its rows ascend by it, so a shuffle on that key can route a filtered part of the
     * block whole by its first and last keys (a filter keeps the order, not the zonemap).
     */
    private Batch sortedBy(final int block, final Batch batch) {
        return sortedColumn >= 0 && batch.rowCount() > 0
                && table.zoneMap(block, projection[sortedColumn]).nullCount() == 0 ? batch.withSortedBy(sortedColumn) : batch;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public int morselCount() {
        return blocks.length;
    }

    @Override
    public boolean ordered() {
        return false;
    }

    /** Number of blocks of the table (pruned or not). */
    public int tableBlocks() {
        return table.blockCount();
    }

    /**
     * Applies a runtime filter to the rows this scan reads, and skips the blocks whose zonemap it rules
     * out; added while the plan is compiled, before the scan runs.
     */
    public void addRuntimeFilter(final ScanRuntimeFilter filter) {
        runtimeFilters.add(filter);
        runtimeFilterZoneMaps.add(filter.keyColumn() >= 0 ? table.zoneMaps(projection[filter.keyColumn()]) : null);
    }

    /** The runtime filters this scan applies. */
    public List<ScanRuntimeFilter> runtimeFilters() {
        return List.copyOf(runtimeFilters);
    }

    @Override
    public Reader openReader() {
        final Evaluator predicate = predicate();
        final int[] scratch = new int[Block.MAX_ROWS];
        final Probing probing = probing();
        return (morsel, out) -> {
            final Batch kept = read(blocks[morsel], predicate, scratch, probing, -1);
            if (kept != null) {
                out.accept(kept);
            }
        };
    }

    /** The table scanned. */
    public BlockTable table() {
        return table;
    }

    /** The blocks the zonemap predicates leave in, ascending. */
    int[] blocks() {
        return blocks;
    }

    /** The table column behind an output column. */
    int tableColumn(final int output) {
        return projection[output];
    }

    /** A per-reader instance of the row filter, or null without one. */
    Evaluator predicate() {
        return filter == null ? null : filter.bind(rowType);
    }

    /** A worker's instance of the runtime filters, or null without any. */
    Probing probing() {
        return runtimeFilters.isEmpty() ? null : new Probing();
    }

    /**
     * The rows of one block that pass the row filter and the runtime filters, or null when none does
     * or the runtime filters skip the block unread.
     *
     * @param bucket the bucket a colocated scan reads the block for, else -1
     */
    Batch read(final int block, final Evaluator predicate, final int[] scratch, final Probing probing, final int bucket) {
        if (probing != null && probing.skips(block, bucket)) {
            return null;
        }
        // The block's rows as read carry its stored bytes, which dispatch sends instead of encoding them
        // again as long as no filter drops a row (a selection of every row is the batch itself).
        final Batch batch = sortedBy(block, Batch.of(table.readBlock(block, projection))
                .withStoredBlock(table.storedBlock(block, projection)));
        if (probing == null) {
            return predicate == null ? batch : Vectors.select(batch, predicate.trues(batch), scratch);
        }
        // One selection for the row filter and every runtime filter: the batch is copied once, if at all.
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
        return Vectors.select(batch, scratch, probing.retain(batch, scratch, count, bucket));
    }

    /** One worker's runtime filters: it waits for them before its first block. */
    final class Probing {
        private final ScanRuntimeFilter.Applier[] appliers = new ScanRuntimeFilter.Applier[runtimeFilters.size()];
        private boolean waited;

        Probing() {
            for (int i = 0; i < appliers.length; i++) {
                appliers[i] = runtimeFilters.get(i).applier();
            }
        }

        boolean skips(final int block, final int bucket) {
            if (!waited) {
                waited = true;
                for (final ScanRuntimeFilter.Applier a : appliers) {
                    a.awaitOnce(Cancellation.never());
                }
            }
            for (int i = 0; i < appliers.length; i++) {
                final ZoneMap[] zoneMaps = runtimeFilterZoneMaps.get(i);
                if (zoneMaps != null && appliers[i].skips(zoneMaps[block], bucket)) {
                    return true;
                }
            }
            return false;
        }

        int retain(final Batch batch, final int[] rows, final int count, final int bucket) {
            int kept = count;
            for (int i = 0; i < appliers.length && kept > 0; i++) {
                kept = appliers[i].retain(batch, rows, kept, bucket);
            }
            return kept;
        }
    }

    @Override
    public String toString() {
        return "scan " + table.name() + rowType.names() + (filter == null ? "" : " where " + filter)
                + (runtimeFilters.isEmpty() ? "" : " runtime filters " + runtimeFilters)
                + " (" + blocks.length + " of " + table.blockCount() + " blocks)";
    }
}
