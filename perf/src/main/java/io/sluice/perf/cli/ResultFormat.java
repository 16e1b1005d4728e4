package io.sluice.perf.cli;

/** How {@code sluice query} prints a result. */
enum ResultFormat {
    /** Aligned columns for reading. */
    table,
    /** RFC 4180 CSV with a header row. */
    csv,
    /** One JSON object: the column names and types, the rows as objects, and the row count. */
    json
}
