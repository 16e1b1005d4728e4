/**
 * The {@code sluice} command line ({@link io.sluice.perf.cli.SluiceCommand}) and its subcommands,
 * such as {@code sluice boundaries} ({@link io.sluice.perf.cli.BoundariesCommand}), which shows the
 * range-shuffle plan of a stored key column next to what a scan of the column finds. Errors are one
 * line on stderr, {@code sluice <command>: error: ...}, with exit code 1.
 *
 * <p>Depends on every other Sluice module and picocli.
 */
package io.sluice.perf.cli;
