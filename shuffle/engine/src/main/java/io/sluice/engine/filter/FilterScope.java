package io.sluice.engine.filter;

/** Where a runtime filter's keys come from and which probe rows it meets (seed 004, plus per bucket). */
public enum FilterScope {
    /** Every CN holds the whole build (broadcast, hybrid): its filter goes straight to its own probe scans. */
    LOCAL,
    /** A shuffle join: each bucket builds a partial filter, the partials are merged and reach every probe scan. */
    GLOBAL,
    /** A range or colocated join: bucket {@code b}'s filter only ever meets bucket {@code b}'s probe rows. */
    PER_BUCKET;

    /** The name EXPLAIN and the stats use: lower case with dashes ({@code per-bucket}). */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
