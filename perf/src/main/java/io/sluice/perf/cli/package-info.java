/**
 * The {@code sluice} command line: {@code gen} (TPC-H data), {@code import} (CSV),
 * {@code inspect} (tables and their zonemaps) and {@code boundaries} (the range-shuffle plan of a
 * key column next to what a scan of it finds), each a picocli subcommand of
 * {@link io.sluice.perf.cli.SluiceCommand}; {@code query} and {@code sql} run on a
 * {@link io.sluice.perf.cli.QueryTarget} (this process, an embedded cluster or a coordinator's), and
 * {@code sql} on a terminal is a JLine prompt ({@link io.sluice.perf.cli.SqlPrompt}); {@code reference} writes
 * the generated pages of {@code docs/reference} ({@link io.sluice.perf.reference.ReferencePages}). User errors print
 * {@code sluice <cmd>: error: ...} and exit with 1; usage errors exit with 2.
 *
 * <p>May depend on every Sluice module; nothing depends on it.
 */
package io.sluice.perf.cli;
