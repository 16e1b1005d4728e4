package io.sluice.perf.cli;

/** One table as {@code sluice inspect} reports it: its summary and, with {@code --verify}, the check of its blocks. */
record InspectedTable(TableSummary summary, TableVerifier.Report verification) {
}
