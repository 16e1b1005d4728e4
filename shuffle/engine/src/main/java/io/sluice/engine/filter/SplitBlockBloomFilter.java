package io.sluice.engine.filter;

import java.util.Arrays;

/**
 * A split-block Bloom filter in the Parquet/Impala layout: 256-bit blocks of eight 32-bit words; a
 * key's hash picks one block with its upper 32 bits and sets one bit in each of the block's eight
 * words, chosen by multiplying its lower 32 bits by eight odd salts. A lookup touches one cache line.
 * Here the block is picked by the upper bits masked to a power-of-two block count, and the words
 * are the halves of four {@code long}s.
 *
 * <p>Filters of the same size merge by OR into the filter of the union of their keys. A filter folds
 * into a smaller one ({@link #folded}): the block of a key in a filter of half the blocks is its
 * block number's lower bits, so OR-ing the upper half of the blocks onto the lower half gives the
 * very filter the same keys would have made at that size.
 */
public final class SplitBlockBloomFilter {
    /** Bytes of one block. */
    public static final int BLOCK_BYTES = 32;
    private static final int LONGS_PER_BLOCK = 4;
    private static final int[] SALT = {
        0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
    };

    private final long[] words;
    private final int blockMask;

    /** An empty filter of {@code bytes} bytes: a power of two of at least {@link #BLOCK_BYTES}. */
    public SplitBlockBloomFilter(final int bytes) {
        if (bytes < BLOCK_BYTES || Integer.bitCount(bytes) != 1) {
            throw new IllegalArgumentException("a split-block Bloom filter has a power of two of at least "
                    + BLOCK_BYTES + " bytes, got " + bytes);
        }
        this.words = new long[bytes / Long.BYTES];
        this.blockMask = bytes / BLOCK_BYTES - 1;
    }

    /** A filter over given words (kept, not copied): a power of two of at least four longs. */
    public SplitBlockBloomFilter(final long[] words) {
        if (words.length < LONGS_PER_BLOCK || Integer.bitCount(words.length) != 1) {
            throw new IllegalArgumentException("a split-block Bloom filter has a power of two of at least "
                    + LONGS_PER_BLOCK + " words, got " + words.length);
        }
        this.words = words;
        this.blockMask = words.length / LONGS_PER_BLOCK - 1;
    }

    /**
     * The size for {@code keys} distinct keys at false-positive rate {@code fpp}: the optimal
     * {@code -n ln(p) / ln(2)^2} bits rounded up to a power of two, within {@code [minBytes, maxBytes]}.
     */
    public static int bytesFor(final long keys, final double fpp, final int minBytes, final int maxBytes) {
        if (!(fpp > 0 && fpp < 1)) {
            throw new IllegalArgumentException("a Bloom filter's false-positive rate lies in (0, 1), got " + fpp);
        }
        final double bits = -Math.max(1, keys) * Math.log(fpp) / (Math.log(2) * Math.log(2));
        final long wanted = (long) Math.ceil(bits / 8);
        long bytes = BLOCK_BYTES;
        while (bytes < wanted && bytes < maxBytes) {
            bytes <<= 1;
        }
        while (bytes < minBytes) {
            bytes <<= 1;
        }
        return (int) Math.min(bytes, Integer.highestOneBit(Math.max(BLOCK_BYTES, maxBytes)));
    }

    /** Size in bytes. */
    public int bytes() {
        return words.length * Long.BYTES;
    }

    /** Adds one key hash. */
    public void insert(final long hash) {
        final int base = ((int) (hash >>> 32) & blockMask) * LONGS_PER_BLOCK;
        final int key = (int) hash;
        for (int i = 0; i < 8; i += 2) {
            final long low = 1L << ((key * SALT[i]) >>> 27);
            final long high = 1L << (((key * SALT[i + 1]) >>> 27) + 32);
            words[base + (i >> 1)] |= low | high;
        }
    }

    /** Adds the first {@code n} key hashes. */
    public void insert(final long[] hashes, final int n) {
        for (int i = 0; i < n; i++) {
            insert(hashes[i]);
        }
    }

    /** Whether a key hash may have been added (false: certainly not). */
    public boolean mightContain(final long hash) {
        final int base = ((int) (hash >>> 32) & blockMask) * LONGS_PER_BLOCK;
        final int key = (int) hash;
        for (int i = 0; i < 8; i += 2) {
            final long mask = (1L << ((key * SALT[i]) >>> 27)) | (1L << (((key * SALT[i + 1]) >>> 27) + 32));
            if ((words[base + (i >> 1)] & mask) != mask) {
                return false;
            }
        }
        return true;
    }

    /** 1 when a key hash may have been added, else 0: every word tested, no branch. */
    private long hit(final long hash) {
        final long[] w = words;
        final int base = ((int) (hash >>> 32) & blockMask) * LONGS_PER_BLOCK;
        final int key = (int) hash;
        final long m0 = (1L << ((key * 0x47b6137b) >>> 27)) | (1L << (((key * 0x44974d91) >>> 27) + 32));
        final long m1 = (1L << ((key * 0x8824ad5b) >>> 27)) | (1L << (((key * 0xa2b7289d) >>> 27) + 32));
        final long m2 = (1L << ((key * 0x705495c7) >>> 27)) | (1L << (((key * 0x2df1424b) >>> 27) + 32));
        final long m3 = (1L << ((key * 0x9efc4947) >>> 27)) | (1L << (((key * 0x5c6bfb31) >>> 27) + 32));
        final long missing = (~w[base] & m0) | (~w[base + 1] & m1) | (~w[base + 2] & m2) | (~w[base + 3] & m3);
        return (missing - 1) >>> 63 & (~missing >>> 63);
    }

    /**
     * Keeps, of the {@code count} rows listed in {@code rows}, those whose key hash the filter may hold, in
     * order, at the front of {@code rows}; returns how many.
     */
    public int retain(final long[] hashes, final int[] rows, final int count) {
        int kept = 0;
        for (int j = 0; j < count; j++) {
            final int row = rows[j];
            rows[kept] = row;
            kept += (int) hit(hashes[row]);
        }
        return kept;
    }

    /** As {@link #retain(long[], int[], int)} for integer keys, each hashed by {@link FilterHash#ofLong}. */
    public int retainValues(final long[] values, final int[] rows, final int count) {
        int kept = 0;
        for (int j = 0; j < count; j++) {
            final int row = rows[j];
            rows[kept] = row;
            kept += (int) hit(FilterHash.ofLong(values[row]));
        }
        return kept;
    }

    /** Adds every key of a filter of the same size. */
    public void or(final SplitBlockBloomFilter other) {
        if (other.words.length != words.length) {
            throw new IllegalArgumentException("Bloom filters of " + other.bytes() + " and " + bytes()
                    + " bytes cannot be merged: partial filters of one join are sized alike");
        }
        for (int i = 0; i < words.length; i++) {
            words[i] |= other.words[i];
        }
    }

    /**
     * This filter at {@code bytes} (a power of two of at least {@link #BLOCK_BYTES}, at most this
     * filter's size): the filter of the same keys at that size; this one itself when the size is its own.
     */
    public SplitBlockBloomFilter folded(final int bytes) {
        if (bytes < BLOCK_BYTES || Integer.bitCount(bytes) != 1 || bytes > bytes()) {
            throw new IllegalArgumentException("a " + bytes() + "-byte Bloom filter folds into a power of two of "
                    + BLOCK_BYTES + " to " + bytes() + " bytes, got " + bytes);
        }
        if (bytes == bytes()) {
            return this;
        }
        final long[] into = new long[bytes / Long.BYTES];
        final int mask = into.length - 1;
        for (int i = 0; i < words.length; i++) {
            into[i & mask] |= words[i];
        }
        return new SplitBlockBloomFilter(into);
    }

    /** The words, for encoding (not copied). */
    long[] words() {
        return words;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof SplitBlockBloomFilter b && Arrays.equals(words, b.words);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(words);
    }
}
