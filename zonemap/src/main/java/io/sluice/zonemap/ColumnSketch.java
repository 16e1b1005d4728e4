package io.sluice.zonemap;

import io.sluice.format.ColumnVector;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.LongsSketch;
import org.apache.datasketches.hll.Union;
import org.apache.datasketches.kll.KllLongsSketch;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;

/**
 * What a scan of one column's non-null values saw, in three small mergeable sketches (Apache
 * DataSketches): KLL quantiles of its keys, the keys that occur most often, and an HLL count of its
 * distinct values. Zonemaps tell only each block's range, so on an unsorted table, where every block
 * spans the whole domain, they cannot see where the rows are; these sketches can.
 *
 * <p>Keys are the zonemap keys of the column ({@link io.sluice.format.StringKey} 8-byte prefixes for
 * strings), kept in {@link KeySpace#toSigned signed order}, so that cut points and heavy keys are the
 * keys boundaries and buckets use; the distinct count of a string column hashes its whole bytes.
 * Error bounds: a quantile's rank within about 0.3% of the rows ({@value #QUANTILE_K} items per level),
 * a frequent key's count within {@code 3.5 / }{@value #FREQUENT_MAP} of the rows, distinct counts within
 * about 1.6% (HLL, 2^{@value #DISTINCT_LG_K} registers). Each value costs the three sketches some tens of
 * nanoseconds, cheap enough to build them on every write.
 */
public final class ColumnSketch {
    /** KLL's k: items kept per level. */
    public static final int QUANTILE_K = 1024;
    /** Frequent-items map size: counts within 3.5 / this of the rows. */
    public static final int FREQUENT_MAP = 2048;
    /** log2 of the HLL registers. */
    public static final int DISTINCT_LG_K = 12;

    private final TypeKind kind;
    private final KllLongsSketch quantiles;
    private final LongsSketch frequent;
    private final Union distinct;

    private ColumnSketch(final TypeKind kind, final KllLongsSketch quantiles, final LongsSketch frequent,
                         final Union distinct) {
        this.kind = kind;
        this.quantiles = quantiles;
        this.frequent = frequent;
        this.distinct = distinct;
    }

    /**
     * An empty sketch.
     *
     * @param kind the column's kind
     * @return a sketch that has seen no value
     */
    public static ColumnSketch empty(final TypeKind kind) {
        return new ColumnSketch(kind, KllLongsSketch.newHeapInstance(QUANTILE_K), new LongsSketch(FREQUENT_MAP),
                new Union(DISTINCT_LG_K));
    }

    /**
     * The column's kind.
     *
     * @return the kind the keys are read as
     */
    public TypeKind kind() {
        return kind;
    }

    /**
     * Adds the non-null values of a vector.
     *
     * @param vector values of this column
     */
    public void update(final ColumnVector vector) {
        final StringVector strings = vector instanceof StringVector s ? s : null;
        final boolean noNulls = vector.nullCount() == 0;
        for (int row = 0, n = vector.rowCount(); row < n; row++) {
            if (noNulls || !vector.isNull(row)) {
                final long key = KeySpace.toSigned(kind, vector.key(row));
                distinct.update(strings == null ? key : hash(strings.bytes(), strings.offset(row), strings.length(row)));
                quantiles.update(key);
                frequent.update(key);
            }
        }
    }

    /** FNV-1a over a string's bytes: the distinct count's input (HLL mixes it again). */
    private static long hash(final byte[] bytes, final int offset, final int length) {
        long h = 0xcbf29ce484222325L;
        for (int i = offset, end = offset + length; i < end; i++) {
            h = (h ^ bytes[i]) * 0x100000001b3L;
        }
        return h;
    }

    /**
     * Adds what another sketch of the same column saw: the result sketches the union of both inputs.
     *
     * @param other a sketch of a column of the same kind
     * @throws IllegalArgumentException when the kinds differ
     */
    public void merge(final ColumnSketch other) {
        if (other.kind != kind) {
            throw new IllegalArgumentException("cannot merge a sketch of a " + other.kind + " column into one of a "
                    + kind + " column");
        }
        quantiles.merge(other.quantiles);
        frequent.merge(other.frequent);
        distinct.update(other.distinct.getResult());
    }

    /**
     * Non-null values seen.
     *
     * @return the count
     */
    public long count() {
        return quantiles.getN();
    }

    /**
     * Whether no non-null value was seen.
     *
     * @return true when {@link #count()} is 0
     */
    public boolean isEmpty() {
        return quantiles.isEmpty();
    }

    /**
     * The keys at the normalized ranks {@code 0, 1/n, ..., 1} in signed order: {@code n + 1} non-decreasing
     * keys, the first the minimum and the last the maximum; a key holding more than {@code 1/n} of the rows
     * appears more than once.
     */
    long[] signedQuantiles(final int n) {
        final double[] ranks = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            ranks[i] = (double) i / n;
        }
        return quantiles.getQuantiles(ranks, QuantileSearchCriteria.INCLUSIVE);
    }

    /**
     * The estimated share of the non-null rows whose key is at most {@code key}.
     *
     * @param key a zonemap key of the column's kind
     * @return the share, in [0, 1]
     */
    public double rankOf(final long key) {
        return isEmpty() ? 0 : quantiles.getRank(KeySpace.toSigned(kind, key), QuantileSearchCriteria.INCLUSIVE);
    }

    /**
     * The estimated distinct non-null values.
     *
     * @return the HLL estimate
     */
    public double distinctEstimate() {
        return distinct.getEstimate();
    }

    /**
     * The keys holding at least {@code minShare} of the non-null rows, heaviest first (no key that does is
     * left out; one a little below may be listed, within the sketch's error).
     *
     * @param minShare the least share, in (0, 1]
     * @return the heavy keys, heaviest first; empty when none holds that share
     * @throws IllegalArgumentException when {@code minShare} is outside (0, 1]
     */
    public List<HeavyKey> heavyKeys(final double minShare) {
        if (!(minShare > 0) || minShare > 1) {
            throw new IllegalArgumentException("a heavy key's share " + minShare + " is not valid: use (0, 1]");
        }
        final List<HeavyKey> heavy = new ArrayList<>();
        final long n = count();
        if (n == 0) {
            return heavy;
        }
        final long threshold = (long) Math.ceil(minShare * n);
        for (final LongsSketch.Row r : frequent.getFrequentItems(Math.max(0, threshold - 1),
                ErrorType.NO_FALSE_NEGATIVES)) {
            if (r.getUpperBound() >= threshold) {
                final long rows = Math.min(n, r.getEstimate());
                heavy.add(new HeavyKey(KeySpace.fromSigned(kind, r.getItem()), rows, (double) rows / n));
            }
        }
        heavy.sort((a, b) -> Long.compare(b.rows(), a.rows()));
        return heavy;
    }

    /** The sketch as bytes ({@link #read} reads them back). */
    byte[] toBytes() {
        final byte[] q = quantiles.toByteArray();
        final byte[] f = frequent.toByteArray();
        final byte[] d = distinct.toCompactByteArray();
        final ByteBuffer out = ByteBuffer.allocate(12 + q.length + f.length + d.length).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(q.length).put(q).putInt(f.length).put(f).putInt(d.length).put(d);
        return out.array();
    }

    /** A sketch of a column of {@code kind} from the bytes {@link #toBytes} wrote. */
    static ColumnSketch read(final TypeKind kind, final ByteBuffer in) {
        final KllLongsSketch q = KllLongsSketch.heapify(Memory.wrap(slice(in)));
        final LongsSketch f = LongsSketch.getInstance(Memory.wrap(slice(in)));
        final Union d = Union.heapify(slice(in));
        return new ColumnSketch(kind, q, f, d);
    }

    private static byte[] slice(final ByteBuffer in) {
        final int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("a sketch part of " + length + " bytes with " + in.remaining() + " left");
        }
        final byte[] part = new byte[length];
        in.get(part);
        return part;
    }
}
