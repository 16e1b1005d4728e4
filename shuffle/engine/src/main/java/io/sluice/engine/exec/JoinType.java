package io.sluice.engine.exec;

/**
 * The joins {@link HashJoinProbe} computes; the build side is always the right side. A NULL in a
 * key column equals nothing, so such a row never matches: INNER and SEMI drop it, LEFT emits it
 * unmatched, ANTI keeps it. RIGHT_SEMI and RIGHT_ANTI output build rows: the probe marks the build
 * rows it matches ({@link BuildRowMarks}) and the marked (unmarked) ones follow once every probe row
 * is in, so that an EXISTS over many rows builds its table on the few outer rows instead.
 */
public enum JoinType {
    /** Probe rows paired with each matching build row. */
    INNER,
    /** As INNER, plus probe rows without a match, with null build columns. */
    LEFT,
    /** Probe rows that have at least one match (EXISTS, IN); build columns are not output. */
    SEMI,
    /** Probe rows that have no match (NOT EXISTS); build columns are not output. */
    ANTI,
    /**
     * {@code key NOT IN (build keys)} with SQL's three-valued logic: over an empty build every probe
     * row; else, when some build key is NULL, no row (each comparison is FALSE or unknown); else the
     * probe rows whose key is not NULL and has no match. One key; the build must hold every build row
     * of the query (a broadcast or gathered build), since emptiness and a NULL key are global facts.
     */
    NULL_AWARE_ANTI,
    /** Build rows that have at least one matching probe row, once each; probe columns are not output. */
    RIGHT_SEMI,
    /** Build rows that have no matching probe row (a NULL key among them); probe columns are not output. */
    RIGHT_ANTI;

    /** Whether the join outputs only probe columns (a semi or anti join). */
    public boolean probeColumnsOnly() {
        return this == SEMI || this == ANTI || this == NULL_AWARE_ANTI;
    }

    /** Whether the join outputs only build columns, build rows marked by the probe (a right semi or anti join). */
    public boolean buildColumnsOnly() {
        return this == RIGHT_SEMI || this == RIGHT_ANTI;
    }

    /** Whether the join's output has the build side's columns. */
    public boolean outputsBuild() {
        return !probeColumnsOnly();
    }

    /** Whether the join's output has the probe side's columns. */
    public boolean outputsProbe() {
        return !buildColumnsOnly();
    }

    /** Whether the join keeps the probe rows without a match and only those (an anti join). */
    public boolean isAnti() {
        return this == ANTI || this == NULL_AWARE_ANTI;
    }
}
