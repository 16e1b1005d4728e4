package io.sluice.engine.filter;

/** The kinds of test a {@link RuntimeFilter} is made of, cheapest first. */
public enum FilterKind {
    /** The smallest and largest build key: a probe block whose zonemap lies outside is never read. */
    MIN_MAX,
    /** The distinct build keys of a small build, sorted: exact, and also tested against zonemaps. */
    IN_LIST,
    /** Every build key of an integer key in a RoaringBitmap: exact, no false positives. */
    BITMAP,
    /** A split-block Bloom filter over key hashes: strings, several key columns, large builds. */
    BLOOM;

    /** The name EXPLAIN and the stats use: lower case with dashes ({@code min-max}). */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
