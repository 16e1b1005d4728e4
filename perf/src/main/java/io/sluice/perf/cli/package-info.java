/**
 * The {@code sluice} command line: {@code gen} (TPC-H data), {@code import} (CSV),
 * {@code inspect} (tables and their zonemaps) and {@code boundaries} (the range-shuffle plan of a
 * key column next to what a scan of it finds), each a picocli subcommand of
 * {@link io.sluice.perf.cli.SluiceCommand}. User errors print {@code sluice <cmd>: error: ...} and
 * exit with 1; usage errors exit with 2.
 *
 * <p>May depend on every Sluice module; nothing depends on it.
 */
package io.sluice.perf.cli;
