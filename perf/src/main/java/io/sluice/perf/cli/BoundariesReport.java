package io.sluice.perf.cli;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.perf.text.Plural;
import io.sluice.shuffle.BoundaryConfig;
import io.sluice.shuffle.BucketFunction;
import io.sluice.shuffle.ColocationPlan;
import io.sluice.shuffle.KeyRange;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.ScanAssignment;
import io.sluice.shuffle.StraddlePolicy;
import io.sluice.shuffle.Topology;
import io.sluice.storage.Table;
import io.sluice.zonemap.HeavyKey;
import io.sluice.zonemap.KeyQuantiles;
import io.sluice.zonemap.TableSketch;
import java.util.List;
import java.util.Locale;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * What {@code sluice boundaries} shows for one key column: the plan from zonemaps (method, cut
 * points, estimated rows per bucket, uniformity, overlap, expected cross-CN rows, rows read more
 * than once) next to the truth from scanning the column as the plan says (each CN reads its blocks
 * and keeps, of those it shares with other CNs, the rows of its range): rows per bucket, rows whose
 * bucket is on another CN than the one that read them, rows read more than once.
 */
final class BoundariesReport {
    private final String table;
    private final String column;
    private final ColumnType type;
    private final long rows;
    private final int blocks;
    private final ColocationPlan plan;
    private final double[] estimatedRows;
    private final long[] actualRows;
    private final long actualCrossRows;
    private final long actualExtraReadRows;
    private final int sharedBlocks;
    /** The column's heavy keys (more than half a bucket's share), or null when the table keeps no sketch. */
    private final List<HeavyKey> heavyKeys;
    private final String storeDir;
    private final boolean sketchSkipped;

    private BoundariesReport(final Table table, final String column, final ColumnType type, final ColocationPlan plan,
                             final long[] actualRows, final long actualCrossRows, final long actualExtraReadRows,
                             final int sharedBlocks, final List<HeavyKey> heavyKeys, final boolean sketchSkipped) {
        this.sketchSkipped = sketchSkipped;
        this.table = table.name();
        this.storeDir = table.dir().getParent().toString();
        this.heavyKeys = heavyKeys;
        this.column = column;
        this.type = type;
        this.rows = table.rowCount();
        this.blocks = table.blockCount();
        this.plan = plan;
        this.estimatedRows = plan.estimatedRows();
        this.actualRows = actualRows;
        this.actualCrossRows = actualCrossRows;
        this.actualExtraReadRows = actualExtraReadRows;
        this.sharedBlocks = sharedBlocks;
    }

    /**
     * Plans from the column's zonemaps, then scans the column as planned (a block read by several
     * CNs is read once per CN) to count what really happens.
     */
    static BoundariesReport of(final Table table, final String column, final Topology topology,
                               final BoundaryConfig config, final StraddlePolicy policy, final boolean useSketch) {
        final int col = table.schema().indexOf(column);
        if (col < 0) {
            throw new IllegalArgumentException("table '" + table.name() + "' has no column '" + column
                    + "': columns are " + table.schema().names());
        }
        final ColocationPlan plan = useSketch ? ColocationPlan.of(table, column, topology, config, policy)
                : ColocationPlan.of(table.schema().type(col).kind(), table.zoneMaps(col), topology, config, policy);
        final BucketFunction function = plan.bucketFunction();
        final ScanAssignment assignment = plan.assignment();
        final long[] perBucket = new long[topology.bucketCount()];
        final int[] bucketOfRow = new int[Block.MAX_ROWS];
        final ColumnVector[] keys = new ColumnVector[1];
        final RoaringBitmap shared = new RoaringBitmap();
        long cross = 0;
        long read = 0;
        for (int cn = 0; cn < topology.cnCount(); cn++) {
            final RoaringBitmap filtered = assignment.filteredBlocksOfCn(cn);
            shared.or(filtered);
            final KeyRange range = filtered.isEmpty() ? null : assignment.cnRange(cn);
            final IntIterator blocks = assignment.blocksOfCn(cn).getIntIterator();
            while (blocks.hasNext()) {
                final int block = blocks.next();
                keys[0] = table.readBlock(block, col).column(0);
                final int rowCount = keys[0].rowCount();
                read += rowCount;
                function.buckets(keys, rowCount, bucketOfRow);
                final boolean filter = filtered.contains(block);
                for (int i = 0; i < rowCount; i++) {
                    if (filter && !(keys[0].isNull(i) ? range.holdsNulls() : range.contains(keys[0].key(i)))) {
                        continue;
                    }
                    final int bucket = bucketOfRow[i];
                    perBucket[bucket]++;
                    if (topology.cnOf(bucket) != cn) {
                        cross++;
                    }
                }
            }
        }
        final TableSketch sketch = useSketch ? TableSketch.of(table) : null;
        return new BoundariesReport(table, column, table.schema().type(col), plan, perBucket, cross,
                read - table.rowCount(), shared.getCardinality(), sketch == null ? null
                        : sketch.column(col).heavyKeys(heavyShare(topology)), !useSketch);
    }

    /** The share above which a key is heavy: half a bucket's, where one key alone unbalances its bucket. */
    static double heavyShare(final Topology topology) {
        return 0.5 / topology.bucketCount();
    }

    /** The plan the report shows. */
    ColocationPlan plan() {
        return plan;
    }

    /** Rows found in each bucket by the scan. */
    long[] actualRows() {
        return actualRows.clone();
    }

    /** Fraction of rows the scan found on another CN than their bucket's. */
    double actualCrossFraction() {
        return rows == 0 ? 0 : (double) actualCrossRows / rows;
    }

    /** Fraction of rows the scan read more than once (a block read by {@code n} CNs counts {@code n - 1} times). */
    double actualExtraReadFraction() {
        return rows == 0 ? 0 : (double) actualExtraReadRows / rows;
    }

    /** The human-readable report. */
    String text() {
        final RangeBoundaries b = plan.boundaries();
        final ScanAssignment a = plan.assignment();
        final Topology t = b.topology();
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "table %s, column %s (%s): %s in %s%n", table, column, type,
                Plural.of(rows, "row"), Plural.of(blocks, "block")));
        sb.append(String.format(Locale.ROOT, "topology %s: %s%n", t, Plural.of(t.bucketCount(), "bucket")));
        sb.append("method: ").append(b.method().label()).append(" (").append(b.explanation()).append(")\n");
        sb.append(String.format(Locale.ROOT, "uniformity: %.4f%n", plan.stats().uniformity()));
        sb.append(String.format(Locale.ROOT, "overlap: %.6f%n", plan.stats().overlap()));
        sb.append("statistics: ").append(statistics()).append('\n');
        if (heavyKeys != null) {
            sb.append(String.format(Locale.ROOT, "heavy keys (over %.2f%% of the rows, half a bucket): ",
                    100 * heavyShare(t)));
            if (heavyKeys.isEmpty()) {
                sb.append("none");
            }
            for (int i = 0; i < heavyKeys.size(); i++) {
                final HeavyKey h = heavyKeys.get(i);
                sb.append(i == 0 ? "" : ", ").append(KeyFormat.cutPoint(type, h.key()))
                        .append(String.format(Locale.ROOT, " (%.1f%%)", 100 * h.share()));
            }
            sb.append('\n');
        }
        final long[] cuts = b.cutPoints();
        if (b.isRange()) {
            sb.append("cut points: ").append(join(cuts)).append('\n');
            sb.append("CN cut points: ").append(join(b.cnCutPoints())).append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%6s %4s %5s  %-24s %12s %12s%n", "bucket", "cn", "core",
                b.isRange() ? "keys" : "keys (hashed)", "estimated", "actual"));
        for (int bucket = 0; bucket < t.bucketCount(); bucket++) {
            final String range = !b.isRange() ? "-"
                    : "[" + (bucket == 0 ? "min" : KeyFormat.cutPoint(type, cuts[bucket - 1])) + ", "
                    + (bucket == cuts.length ? "max]" : KeyFormat.cutPoint(type, cuts[bucket]) + ")");
            sb.append(String.format(Locale.ROOT, "%6d %4d %5d  %-24s %12d %12d%n", bucket, t.cnOf(bucket), t.coreOf(bucket),
                    range, Math.round(estimatedRows[bucket]), actualRows[bucket]));
        }
        sb.append(String.format(Locale.ROOT, "rows per bucket, max/mean: estimated %.3f, actual %.3f%n",
                maxOverMean(estimatedRows), maxOverMean(actualRows)));
        sb.append(String.format(Locale.ROOT, "scan: %s, %d of %s routed whole%n",
                a.colocated() ? "colocated" : "round-robin", a.wholeBlocks().getCardinality(), Plural.of(blocks, "block")));
        sb.append("straddling blocks: ").append(a.policy().label()).append(!a.colocated()
                ? " (moot: blocks are dealt round-robin)"
                : a.policy() == StraddlePolicy.SPLIT
                ? " (" + Plural.of(sharedBlocks, "block") + " read by several CNs, each keeping the rows of its range)"
                : " (each read once, by the CN holding most of its rows)").append('\n');
        sb.append(String.format(Locale.ROOT, "rows crossing CNs: estimated %.4f%% (%s), actual %.4f%% (%s)%n",
                100 * a.expectedCrossCnFraction(), Plural.of(Math.round(a.expectedCrossCnRows()), "row"),
                100 * actualCrossFraction(), Plural.of(actualCrossRows, "row")));
        sb.append(String.format(Locale.ROOT, "rows read more than once: estimated %.4f%% (%s), actual %.4f%% (%s)%n",
                100 * a.extraReadFraction(), Plural.of(a.extraReadRows(), "row"), 100 * actualExtraReadFraction(),
                Plural.of(actualExtraReadRows, "row")));
        return sb.toString();
    }

    private String statistics() {
        if (sketchSkipped) {
            return "zonemaps only (--no-sketch)";
        }
        if (plan.stats().sketched()) {
            return "zonemaps and the column's sketch (the blocks overlap: their zonemaps cannot show where the rows are)";
        }
        if (heavyKeys != null) {
            return "zonemaps (clustered blocks; the table's sketch gives the heavy keys)";
        }
        return plan.stats().overlap() < KeyQuantiles.SKETCH_OVERLAP ? "zonemaps"
                : "zonemaps only: the table keeps no sketch, and its overlapping blocks hide how the keys are"
                        + " distributed; compute one with `sluice analyze --store " + storeDir + " --tables " + table + "`";
    }

    private String join(final long[] keys) {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(KeyFormat.cutPoint(type, keys[i]));
        }
        return keys.length == 0 ? "(none)" : sb.toString();
    }

    /** The report as one JSON object. */
    String json() {
        final RangeBoundaries b = plan.boundaries();
        final ScanAssignment a = plan.assignment();
        final StringBuilder sb = new StringBuilder("{");
        sb.append("\"table\":").append(KeyFormat.jsonString(table));
        sb.append(",\"column\":").append(KeyFormat.jsonString(column));
        sb.append(",\"type\":").append(KeyFormat.jsonString(type.toString()));
        sb.append(",\"rows\":").append(rows);
        sb.append(",\"topology\":").append(KeyFormat.jsonString(b.topology().toString()));
        sb.append(",\"method\":").append(KeyFormat.jsonString(b.method().label()));
        sb.append(",\"hash_reason\":").append(b.isRange() ? "null"
                : KeyFormat.jsonString(b.hashReason().name().toLowerCase(Locale.ROOT).replace('_', '-')));
        sb.append(",\"explanation\":").append(KeyFormat.jsonString(b.explanation()));
        sb.append(",\"buckets\":").append(b.bucketCount());
        sb.append(",\"cut_points\":[");
        final long[] cuts = b.cutPoints();
        for (int i = 0; i < cuts.length; i++) {
            sb.append(i == 0 ? "" : ",").append(KeyFormat.cutPointJson(type, cuts[i]));
        }
        sb.append("],\"estimated_rows\":[");
        for (int i = 0; i < estimatedRows.length; i++) {
            sb.append(i == 0 ? "" : ",").append(Math.round(estimatedRows[i]));
        }
        sb.append("],\"actual_rows\":[");
        for (int i = 0; i < actualRows.length; i++) {
            sb.append(i == 0 ? "" : ",").append(actualRows[i]);
        }
        sb.append("],\"max_over_mean\":{\"estimated\":").append(number(maxOverMean(estimatedRows)));
        sb.append(",\"actual\":").append(number(maxOverMean(actualRows))).append('}');
        sb.append(",\"uniformity\":").append(number(plan.stats().uniformity()));
        sb.append(",\"overlap\":").append(number(plan.stats().overlap()));
        sb.append(",\"sketched\":").append(plan.stats().sketched());
        sb.append(",\"heavy_keys\":");
        if (heavyKeys == null) {
            sb.append("null");
        } else {
            sb.append('[');
            for (int i = 0; i < heavyKeys.size(); i++) {
                final HeavyKey h = heavyKeys.get(i);
                sb.append(i == 0 ? "" : ",").append("{\"key\":").append(KeyFormat.cutPointJson(type, h.key()))
                        .append(",\"rows\":").append(h.rows()).append(",\"share\":").append(number(h.share())).append('}');
            }
            sb.append(']');
        }
        sb.append(",\"cross_cn_fraction\":{\"estimated\":").append(number(a.expectedCrossCnFraction()));
        sb.append(",\"actual\":").append(number(actualCrossFraction())).append('}');
        sb.append(",\"extra_read_fraction\":{\"estimated\":").append(number(a.extraReadFraction()));
        sb.append(",\"actual\":").append(number(actualExtraReadFraction())).append('}');
        sb.append(",\"straddle\":").append(KeyFormat.jsonString(a.policy().label()));
        sb.append(",\"scan\":").append(KeyFormat.jsonString(a.colocated() ? "colocated" : "round-robin"));
        return sb.append("}\n").toString();
    }

    /** The fullest bucket over the mean bucket, nulls included (1 is perfectly balanced). */
    private static double maxOverMean(final double[] rows) {
        double max = 0;
        double sum = 0;
        for (final double r : rows) {
            max = Math.max(max, r);
            sum += r;
        }
        return sum == 0 ? 1 : max / (sum / rows.length);
    }

    private static double maxOverMean(final long[] rows) {
        final double[] asDouble = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            asDouble[i] = rows[i];
        }
        return maxOverMean(asDouble);
    }

    private static String number(final double x) {
        return Double.isFinite(x) ? String.format(Locale.ROOT, "%.6g", x) : "null";
    }
}
