package io.sluice.engine.filter;

/**
 * How runtime filters are made, waited for and turned off, with Impala's defaults where it has one.
 * Some can be overridden with a system property ({@link RuntimeFilterProperty}).
 *
 * @param mode          which filters are made (default {@link RuntimeFilterMode#GLOBAL})
 * @param waitMillis    how long a probe scan waits for its filters before it starts reading (default
 *                      {@value #DEFAULT_WAIT_MILLIS}); a filter arriving later applies from then on
 * @param inListMaxKeys distinct build keys up to which an integer key gets an {@link InList} (default
 *                      {@value #DEFAULT_IN_LIST_MAX_KEYS})
 * @param bitmapMaxBytes largest exact {@link KeyBitset} over an integer key's {@code [min, max]} probes test (default
 *                      {@value #DEFAULT_BITMAP_MAX_BYTES}), or {@value #BITMAP_BYTES_PER_KEY} bytes per distinct key
 *                      when that is more (at most {@value #LARGE_BITMAP_MAX_BYTES}; 0 makes no bitsets); keys
 *                      further apart are tested by IN list or Bloom filter
 * @param bloomFpp      false-positive rate Bloom filters are sized for (default {@value #DEFAULT_BLOOM_FPP})
 * @param bloomMinBytes smallest Bloom filter
 * @param bloomMaxBytes largest Bloom filter (it must fit a control message to cross CNs)
 * @param sampleRows    probe rows a filter is judged on (default {@value #DEFAULT_SAMPLE_ROWS})
 * @param minRejection  share of the sampled rows a filter must reject to stay on (default
 *                      {@value #DEFAULT_MIN_REJECTION}); below it the filter passes every row from then on
 */
public record RuntimeFilterConfig(RuntimeFilterMode mode, long waitMillis, int inListMaxKeys, int bitmapMaxBytes,
                                  double bloomFpp, int bloomMinBytes, int bloomMaxBytes, long sampleRows,
                                  double minRejection) {
    /** Default wait of a probe scan for its filters, as Impala's RUNTIME_FILTER_WAIT_TIME_MS. */
    public static final long DEFAULT_WAIT_MILLIS = 1000;
    /** Default largest IN list. */
    public static final int DEFAULT_IN_LIST_MAX_KEYS = 1024;
    /** Default largest Bloom filter: 256 KiB, well inside one control message. */
    public static final int DEFAULT_MAX_BYTES = 256 * 1024;
    /** Default largest exact bitset: 1 MiB, 8M key values (made on each CN, it never crosses CNs). */
    public static final int DEFAULT_BITMAP_MAX_BYTES = 1 << 20;
    /**
     * Bitset bytes a filter of many distinct keys may take per key beyond {@link #bitmapMaxBytes}: 128 bits, less
     * than the join table of those keys takes, for an exact test where a Bloom filter capped at
     * {@link #DEFAULT_MAX_BYTES} would pass more rows at several times the cost per row (one bucket's orders
     * of a TPC-H scale factor of 10: 290-730 K keys over 30 M values).
     */
    public static final int BITMAP_BYTES_PER_KEY = 16;
    /** No bitset grows past this many bytes by {@link #BITMAP_BYTES_PER_KEY} (512 M key values). */
    public static final int LARGE_BITMAP_MAX_BYTES = 64 << 20;
    /** Default smallest Bloom filter. */
    public static final int DEFAULT_BLOOM_MIN_BYTES = 1024;
    /** Default false-positive rate of Bloom filters. */
    public static final double DEFAULT_BLOOM_FPP = 0.01;
    /** Default rows a filter is judged on. */
    public static final long DEFAULT_SAMPLE_ROWS = 16 * 1024;
    /** Default share of rows a filter must reject to stay on. */
    public static final double DEFAULT_MIN_REJECTION = 0.10;

    public RuntimeFilterConfig {
        if (mode == null) {
            throw new IllegalArgumentException("a runtime filter config needs a mode: off, local or global");
        }
        if (waitMillis < 0) {
            throw new IllegalArgumentException("runtime filter wait must be 0 ms or more, got " + waitMillis);
        }
        if (inListMaxKeys < 0 || bitmapMaxBytes < 0 || sampleRows < 0) {
            throw new IllegalArgumentException("runtime filter limits must be 0 or more, got inListMaxKeys="
                    + inListMaxKeys + ", bitmapMaxBytes=" + bitmapMaxBytes + ", sampleRows=" + sampleRows);
        }
        if (!(bloomFpp > 0 && bloomFpp < 1)) {
            throw new IllegalArgumentException("Bloom filter false-positive rate must lie in (0, 1), got " + bloomFpp);
        }
        if (bloomMinBytes < SplitBlockBloomFilter.BLOCK_BYTES || bloomMaxBytes < bloomMinBytes) {
            throw new IllegalArgumentException("Bloom filter sizes need " + SplitBlockBloomFilter.BLOCK_BYTES
                    + " <= bloomMinBytes <= bloomMaxBytes, got " + bloomMinBytes + " and " + bloomMaxBytes);
        }
        if (!(minRejection >= 0 && minRejection <= 1)) {
            throw new IllegalArgumentException("minimum rejection must lie in [0, 1], got " + minRejection);
        }
    }

    /** The defaults, overridden by system properties where set. */
    public static RuntimeFilterConfig defaults() {
        return new RuntimeFilterConfig(
                RuntimeFilterMode.parse(RuntimeFilterProperty.MODE.value()),
                Long.getLong(RuntimeFilterProperty.WAIT_MS.key(), DEFAULT_WAIT_MILLIS),
                Integer.getInteger(RuntimeFilterProperty.IN_LIST_MAX_KEYS.key(), DEFAULT_IN_LIST_MAX_KEYS),
                DEFAULT_BITMAP_MAX_BYTES,
                Double.parseDouble(RuntimeFilterProperty.BLOOM_FPP.value()),
                DEFAULT_BLOOM_MIN_BYTES,
                Integer.getInteger(RuntimeFilterProperty.BLOOM_MAX_BYTES.key(), DEFAULT_MAX_BYTES),
                DEFAULT_SAMPLE_ROWS,
                DEFAULT_MIN_REJECTION);
    }

    /** The same config with another mode. */
    public RuntimeFilterConfig withMode(final RuntimeFilterMode m) {
        return new RuntimeFilterConfig(m, waitMillis, inListMaxKeys, bitmapMaxBytes, bloomFpp, bloomMinBytes,
                bloomMaxBytes, sampleRows, minRejection);
    }

    /** The same config with another wait. */
    public RuntimeFilterConfig withWaitMillis(final long millis) {
        return new RuntimeFilterConfig(mode, millis, inListMaxKeys, bitmapMaxBytes, bloomFpp, bloomMinBytes,
                bloomMaxBytes, sampleRows, minRejection);
    }

    /** The Bloom filter size for {@code keys} distinct keys. */
    public int bloomBytesFor(final long keys) {
        return SplitBlockBloomFilter.bytesFor(keys, bloomFpp, bloomMinBytes, bloomMaxBytes);
    }

    /** The largest exact bitset a filter of {@code distinct} keys may take, in bytes (see {@link #bitmapMaxBytes}). */
    public int bitmapBytesFor(final long distinct) {
        if (bitmapMaxBytes == 0) {
            return 0;
        }
        return (int) Math.max(bitmapMaxBytes, Math.min(LARGE_BITMAP_MAX_BYTES, BITMAP_BYTES_PER_KEY * distinct));
    }
}
