package io.sluice.engine.exec;

/** The joins {@link HashJoinProbe} computes; the build side is always the right side. */
public enum JoinType {
    /** Probe rows paired with each matching build row. */
    INNER,
    /** As INNER, plus probe rows without a match, with null build columns. */
    LEFT,
    /** Probe rows that have at least one match (EXISTS, IN); build columns are not output. */
    SEMI,
    /** Probe rows that have no match (NOT EXISTS); build columns are not output. */
    ANTI
}
