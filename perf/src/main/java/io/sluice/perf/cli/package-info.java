/**
 * The {@code sluice} command line: {@code gen} (TPC-H data), {@code import} (CSV) and
 * {@code inspect} (tables and their zonemaps), each a picocli subcommand of
 * {@link io.sluice.perf.cli.SluiceCommand}. User errors print {@code sluice <cmd>: error: ...} and
 * exit with 1; usage errors exit with 2.
 *
 * <p>May depend on every Sluice module; nothing depends on it.
 */
package io.sluice.perf.cli;
