package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.ExprColumns;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import io.sluice.shuffle.CachedBlockPlacement;
import io.sluice.shuffle.operator.Batch;
import io.sluice.zonemap.BlockPruner;
import io.sluice.zonemap.Predicate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.roaringbitmap.RoaringBitmap;

/**
 * Scans a stored table: one morsel per block that the zonemap predicates leave in
 * ({@link BlockPruner}), reading only the projected columns and keeping the rows that pass the
 * row filter and the runtime filters: the columns those test first, the others only for the rows
 * that pass ({@link ScanReading}, one per worker). A batch that passes whole keeps its block's
 * zonemaps and its stored bytes ({@link BlockTable#storedBlock}).
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
    /** The output columns the row filter and the runtime filters test, ascending. */
    private int[] tested;
    /** Per output column, whether the operator above drops it (a column only the row filter reads). */
    private boolean[] dropped;

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
        this(table, columns, pruning, filter, cn, cnCount, null);
    }

    /**
     * The share of CN {@code cn} of {@code cnCount} in a scan whose blocks no colocation pins: with what each CN's
     * block cache holds of the table ({@code cachedOf}, by CN), a block goes to a CN caching it while the load
     * stays balanced ({@link CachedBlockPlacement}); without ({@code null}), block {@code b} is read on CN
     * {@code b % cnCount}.
     */
    public TableScan(final BlockTable table, final List<String> columns, final List<Predicate> pruning, final Expr filter,
                     final int cn, final int cnCount, final RoaringBitmap[] cachedOf) {
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
        if (cnCount > 1 && cachedOf != null) {
            keep = CachedBlockPlacement.place(keep.toArray(), cnCount, cachedOf)[cn];
        } else if (cnCount > 1) {
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
        this.tested = testedColumns();
    }

    /** The output columns the runtime filters read, ascending. */
    int[] probedColumns() {
        final Set<String> names = new HashSet<>();
        for (final ScanRuntimeFilter f : runtimeFilters) {
            ExprColumns.collectAll(f.keys(), names);
        }
        return IntStream.range(0, projection.length).filter(c -> names.contains(rowType.names().get(c))).toArray();
    }

    /** The output columns the row filter and the runtime filters read, ascending. */
    private int[] testedColumns() {
        final Set<String> names = new HashSet<>();
        ExprColumns.collect(filter, names);
        for (final ScanRuntimeFilter f : runtimeFilters) {
            ExprColumns.collectAll(f.keys(), names);
        }
        return IntStream.range(0, projection.length).filter(c -> names.contains(rowType.names().get(c))).toArray();
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
        tested = testedColumns();
    }

    /**
     * Notes the output columns the operator right above this scan drops (a projection of the others;
     * columns only the row filter reads): the rows that pass carry a placeholder in them, not their
     * values, unless every row of a block passes. Set while the plan is compiled, before the scan runs.
     */
    public void dropAbove(final Set<String> names) {
        final boolean[] d = new boolean[projection.length];
        boolean any = false;
        for (int c = 0; c < d.length; c++) {
            d[c] = names.contains(rowType.names().get(c));
            any |= d[c];
        }
        dropped = any ? d : null;
    }

    /** Per output column whether the operator above drops it, or null when it drops none. */
    boolean[] dropped() {
        return dropped;
    }

    /** The runtime filters this scan applies. */
    public List<ScanRuntimeFilter> runtimeFilters() {
        return List.copyOf(runtimeFilters);
    }

    @Override
    public Reader openReader() {
        final ScanReading reading = reading();
        return (morsel, out) -> {
            final Batch kept = reading.read(blocks[morsel], -1);
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

    /** One worker's reading of this scan's blocks. */
    ScanReading reading() {
        return new ScanReading(this, filter == null ? null : filter.bind(rowType), tested);
    }

    /** The projected columns, by table position, in output order. */
    int[] projection() {
        return projection;
    }

    /** The runtime filters' key zonemaps, one array per filter (null for a filter of several keys). */
    List<ZoneMap[]> runtimeFilterZoneMaps() {
        return runtimeFilterZoneMaps;
    }

    /** The projected column the table is sorted by, or -1. */
    int sortedColumn() {
        return sortedColumn;
    }

    @Override
    public String toString() {
        return "scan " + table.name() + rowType.names() + (filter == null ? "" : " where " + filter)
                + (runtimeFilters.isEmpty() ? "" : " runtime filters " + runtimeFilters)
                + " (" + blocks.length + " of " + table.blockCount() + " blocks)";
    }
}
