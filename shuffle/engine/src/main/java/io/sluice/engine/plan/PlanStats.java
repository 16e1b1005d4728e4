package io.sluice.engine.plan;

import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.format.TypeKind;
import io.sluice.format.spi.BlockTable;
import io.sluice.format.spi.Catalog;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.Topology;
import io.sluice.zonemap.BlockPruner;
import io.sluice.zonemap.ColumnSketch;
import io.sluice.zonemap.HeavyKey;
import io.sluice.zonemap.HeavyKeys;
import io.sluice.zonemap.KeyQuantiles;
import io.sluice.zonemap.Predicate;
import io.sluice.zonemap.SampledSketch;
import io.sluice.zonemap.TableSketch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * What the planner rules know about a plan from zonemaps alone: row estimates (upper bounds: a
 * scan's rows after block pruning, not after its row filter) and, for a column that is a stored
 * column passed on unchanged, that column's {@link KeyQuantiles}.
 */
public final class PlanStats {
    private final Catalog tables;
    private final Map<String, KeyQuantiles> quantiles = new HashMap<>();
    private final Map<String, Optional<TableSketch>> sketches = new HashMap<>();
    /** Sampled sketches of columns whose tables keep none, by table and column. */
    private final Map<String, ColumnSketch> sampled = new HashMap<>();

    /** Statistics of plans over the tables of {@code tables}. */
    public PlanStats(final Catalog tables) {
        this.tables = tables;
    }

    /** A stored column a plan column comes from unchanged. */
    record ColumnOrigin(BlockTable table, int column) {
    }

    /** Where a column of a node's output comes from, or null when it is computed. */
    ColumnOrigin origin(final PlanNode node, final String column) {
        if (node instanceof PlanNode.Scan s) {
            return s.columns().contains(column)
                    ? new ColumnOrigin(tables.table(s.table()), tables.table(s.table()).schema().require(column)) : null;
        }
        if (node instanceof PlanNode.Filter f) {
            return origin(f.input(), column);
        }
        if (node instanceof PlanNode.Project p) {
            return origin(p.input(), p.items(), column);
        }
        if (node instanceof PlanNode.Aggregation a) {
            return origin(a.input(), a.keys(), column);
        }
        if (node instanceof PlanNode.Join j) {
            if (j.type().buildColumnsOnly()) {
                return origin(j.build(), column);
            }
            final ColumnOrigin o = origin(j.probe(), column);
            return o != null || j.type().probeColumnsOnly() ? o : origin(j.build(), column);
        }
        if (node instanceof PlanNode.OrderBy o) {
            return origin(o.input(), column);
        }
        if (node instanceof PlanNode.UnionAll) {
            // Rows of several inputs: no one stored column's statistics describe them.
            return null;
        }
        if (node instanceof PlanNode.Window w) {
            return columns(w.input()).contains(column) ? origin(w.input(), column) : null;
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return origin(a.input(), column);
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            final ColumnOrigin o = origin(j.probe(), column);
            return o != null || j.type().probeColumnsOnly() ? o : origin(j.build(), column);
        }
        return origin(((PlanNode.Limit) node).input(), column);
    }

    private ColumnOrigin origin(final PlanNode input, final Iterable<NamedExpr> items, final String column) {
        for (final NamedExpr item : items) {
            if (item.name().equals(column)) {
                return item.expr() instanceof ColumnRef r ? origin(input, r.name()) : null;
            }
        }
        return null;
    }

    /**
     * Whether a node is a scan of a table stored in the order of a column, so its blocks hold
     * narrow key ranges that a colocated scan routes whole.
     */
    boolean scanSortedBy(final PlanNode node, final String column) {
        final RenamedScan s = RenamedScan.of(node);
        final String stored = s == null ? null : s.scanColumn(column);
        return stored != null && stored.equals(tables.table(s.scan().table()).sortKey());
    }

    /**
     * The key statistics of a stored column, from its zonemaps and, on unclustered blocks, the table's
     * sketch (computed once per query).
     */
    KeyQuantiles quantiles(final ColumnOrigin o) {
        return quantiles.computeIfAbsent(o.table().name() + "." + o.column(), k -> {
            final TableSketch sketch = sketches.computeIfAbsent(o.table().name(), n -> Optional.ofNullable(
                    TableSketch.of(o.table()))).orElse(null);
            return KeyQuantiles.of(o.table().schema().type(o.column()).kind(), o.table().zoneMaps(o.column()),
                    KeyQuantiles.DEFAULT_MAX_BLOCKS, sketch == null ? null : sketch.column(o.column()));
        });
    }

    private ColumnSketch sketch(final ColumnOrigin o) {
        final TableSketch sketch = sketches.computeIfAbsent(o.table().name(), n -> Optional.ofNullable(
                TableSketch.of(o.table()))).orElse(null);
        return sketch == null ? null : sketch.column(o.column());
    }

    /**
     * The keys of a stored column holding more than {@code minShare} of its non-null rows, heaviest first
     * ({@link HeavyKeys}), or none for a computed column. Shares are of the stored column, before any filter.
     */
    List<HeavyKey> heavyKeys(final PlanNode node, final String column, final double minShare) {
        final ColumnOrigin o = origin(node, column);
        if (o == null) {
            return List.of();
        }
        final ColumnSketch kept = sketch(o);
        // A column of a table without a sketch (an old store, a foreign table) whose blocks overlap, so that its
        // zonemaps show no point mass, is sampled for its heavy keys alone: a sample would bias quantiles and
        // distinct counts, but finds a key above a share of a bucket. Planning reads zonemaps only otherwise.
        final ColumnSketch sketch = kept != null || quantiles(o).overlap() < KeyQuantiles.SKETCH_OVERLAP ? kept
                : sampled.computeIfAbsent(o.table().name() + "." + o.column(), k -> SampledSketch.of(o.table(),
                        o.column()));
        return HeavyKeys.of(o.table().schema().type(o.column()).kind(), o.table().zoneMaps(o.column()), sketch,
                minShare);
    }

    /** Range boundaries for the keys of a column other than {@code excluded} (dispatched apart), or null when computed. */
    RangeBoundaries boundaries(final PlanNode node, final String column, final Topology topology,
                               final long[] excluded) {
        final KeyQuantiles rest = quantiles(node, column, excluded);
        return rest == null ? null : RangeBoundaries.plan(rest, topology);
    }

    /** The key statistics of a column without the keys {@code excluded} (dispatched apart), or null when computed. */
    KeyQuantiles quantiles(final PlanNode node, final String column, final long[] excluded) {
        final ColumnOrigin o = origin(node, column);
        return o == null ? null : KeyQuantiles.without(o.table().schema().type(o.column()).kind(),
                o.table().zoneMaps(o.column()), KeyQuantiles.DEFAULT_MAX_BLOCKS, sketch(o), excluded);
    }

    /** Range boundaries for one bucket per core of the topology from a column's zonemaps, or null when it is computed. */
    RangeBoundaries boundaries(final PlanNode node, final String column, final Topology topology) {
        final ColumnOrigin o = origin(node, column);
        return o == null ? null : RangeBoundaries.plan(quantiles(o), topology);
    }

    /**
     * Estimated distinct values of a column, or -1 when unknown: a computed column, or a string
     * column without a sketch, whose zonemap prefix keys span far more key space than it has values.
     */
    double distinct(final PlanNode node, final String column) {
        final ColumnOrigin o = origin(node, column);
        if (o == null) {
            return -1;
        }
        final KeyQuantiles q = quantiles(o);
        return o.table().schema().type(o.column()).kind() == TypeKind.STRING && !q.sketched() ? -1
                : q.distinctEstimate();
    }

    /** Bytes a string value is estimated to take in a batch: its 4-byte offset and ~20 bytes of text. */
    static final int STRING_BYTES = 24;
    /** Bytes a computed value is estimated to take (a long, a double or a scaled decimal). */
    static final int COMPUTED_BYTES = 8;

    /**
     * An upper estimate of a node's output bytes in batches: its {@link #rows} times the width of
     * its output columns (8 bytes for 64-bit values and anything computed, 4 for ints and dates,
     * {@value #STRING_BYTES} for a string). What an exchange of the node's rows moves.
     */
    public long bytes(final PlanNode node) {
        final long rows = rows(node);
        final long width = rowWidth(node);
        return rows > Long.MAX_VALUE / width ? Long.MAX_VALUE : rows * width;
    }

    /** The estimated bytes of one output row of a node. */
    public long rowWidth(final PlanNode node) {
        long width = 0;
        for (final String column : columns(node)) {
            final ColumnOrigin o = origin(node, column);
            width += o == null ? COMPUTED_BYTES : switch (o.table().schema().type(o.column()).kind()) {
                case INT64, DECIMAL -> 8;
                case DECIMAL128 -> 16;
                case INT32, DATE -> 4;
                case STRING -> STRING_BYTES;
            };
        }
        return Math.max(1, width);
    }

    /** The names of a node's output columns. */
    public static List<String> columns(final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            return s.columns();
        }
        if (node instanceof PlanNode.Filter f) {
            return columns(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return p.items().stream().map(NamedExpr::name).toList();
        }
        if (node instanceof PlanNode.Aggregation a) {
            final List<String> out = new ArrayList<>(a.keys().stream().map(NamedExpr::name).toList());
            a.aggregates().forEach(agg -> out.add(agg.name()));
            return out;
        }
        if (node instanceof PlanNode.Join j) {
            if (j.type().probeColumnsOnly()) {
                return columns(j.probe());
            }
            if (j.type().buildColumnsOnly()) {
                return columns(j.build());
            }
            final List<String> out = new ArrayList<>(columns(j.probe()));
            out.addAll(columns(j.build()));
            return out;
        }
        if (node instanceof PlanNode.OrderBy o) {
            return columns(o.input());
        }
        if (node instanceof PlanNode.UnionAll u) {
            return columns(u.inputs().get(0));
        }
        if (node instanceof PlanNode.Window w) {
            final List<String> out = new ArrayList<>(columns(w.input()));
            w.functions().forEach(f -> out.add(f.name()));
            return out;
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return columns(a.input());
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            final List<String> out = new ArrayList<>(columns(j.probe()));
            if (!j.type().probeColumnsOnly()) {
                out.addAll(columns(j.build()));
            }
            return out;
        }
        return columns(((PlanNode.Limit) node).input());
    }

    /** An upper estimate of a node's output rows. */
    public long rows(final PlanNode node) {
        if (node instanceof PlanNode.Scan s) {
            final BlockTable t = tables.table(s.table());
            if (s.pruning().isEmpty()) {
                return t.rowCount();
            }
            RoaringBitmap keep = RoaringBitmap.bitmapOfRange(0, t.blockCount());
            for (final Predicate p : s.pruning()) {
                keep = RoaringBitmap.and(keep, BlockPruner.prune(p, t));
            }
            long rows = 0;
            for (final int b : keep.toArray()) {
                rows += t.blockRowCount(b);
            }
            return rows;
        }
        if (node instanceof PlanNode.Filter f) {
            return rows(f.input());
        }
        if (node instanceof PlanNode.Project p) {
            return rows(p.input());
        }
        if (node instanceof PlanNode.Aggregation a) {
            if (a.keys().isEmpty()) {
                return 1;
            }
            final long in = rows(a.input());
            final double d = a.keys().get(0).expr() instanceof ColumnRef r ? distinct(a.input(), r.name()) : -1;
            return d < 0 ? in : Math.min(in, (long) d);
        }
        if (node instanceof PlanNode.Join j) {
            return rows(j.type().buildColumnsOnly() ? j.build() : j.probe());
        }
        if (node instanceof PlanNode.OrderBy o) {
            return o.limit() >= 0 ? Math.min(o.limit(), rows(o.input())) : rows(o.input());
        }
        if (node instanceof PlanNode.UnionAll u) {
            long sum = 0;
            for (final PlanNode in : u.inputs()) {
                final long r = rows(in);
                sum = r > Long.MAX_VALUE - sum ? Long.MAX_VALUE : sum + r;
            }
            return sum;
        }
        if (node instanceof PlanNode.Window w) {
            return rows(w.input());
        }
        if (node instanceof PlanNode.AssertOneRow a) {
            return a.keys().isEmpty() ? 1 : rows(a.input());
        }
        if (node instanceof PlanNode.NestedLoopJoin j) {
            final long probe = rows(j.probe());
            if (j.type().probeColumnsOnly()) {
                return probe;
            }
            final long build = Math.max(1, rows(j.build()));
            return probe > Long.MAX_VALUE / build ? Long.MAX_VALUE : probe * build;
        }
        final PlanNode.Limit l = (PlanNode.Limit) node;
        return Math.min(l.limit(), rows(l.input()));
    }
}
